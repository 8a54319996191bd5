import { OutputTail } from './output-tail';

describe('OutputTail', () => {
  it('keeps everything while under capacity', () => {
    const tail = new OutputTail(10);
    tail.push(Buffer.from('abc'));
    tail.push(Buffer.from('def'));
    expect(tail.text()).toBe('abcdef');
    expect(tail.truncated).toBe(false);
  });

  it('keeps exactly the last bytes across chunk boundaries', () => {
    const tail = new OutputTail(5);
    tail.push(Buffer.from('abc'));
    tail.push(Buffer.from('defg'));
    tail.push(Buffer.from('h'));
    expect(tail.text()).toBe('defgh');
    expect(tail.truncated).toBe(true);
  });

  it('keeps the tail of a single chunk larger than the capacity', () => {
    const tail = new OutputTail(4);
    tail.push(Buffer.from('0123456789'));
    expect(tail.text()).toBe('6789');
  });

  it('holds exactly the capacity without reporting truncation', () => {
    const tail = new OutputTail(3);
    tail.push(Buffer.from('abc'));
    expect(tail.text()).toBe('abc');
    expect(tail.truncated).toBe(false);
  });
});
