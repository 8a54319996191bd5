import { lastReadyStatus } from './session-server';

function message(type: string, body: Buffer): Buffer {
  const header = Buffer.alloc(5);
  header.write(type, 0);
  header.writeInt32BE(4 + body.length, 1);
  return Buffer.concat([header, body]);
}

describe('lastReadyStatus', () => {
  it('reads the transaction status of the last ReadyForQuery among the messages', () => {
    const out = Buffer.concat([message('1', Buffer.alloc(0)), message('Z', Buffer.from('T')), message('C', Buffer.from('COMMIT\0')), message('Z', Buffer.from('I'))]);
    expect(lastReadyStatus(out)).toBe('I');
    expect(lastReadyStatus(out.subarray(0, out.length - 6))).toBe('T');
  });

  it('answers null when no ReadyForQuery came (a Parse or Bind before its Sync)', () => {
    expect(lastReadyStatus(message('1', Buffer.alloc(0)))).toBeNull();
    expect(lastReadyStatus(Buffer.alloc(0))).toBeNull();
  });
});
