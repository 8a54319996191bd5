import { parseSseFrame, takeSseFrames } from './sse-frames';

describe('text/event-stream frames', () => {
  it('reads id, event and multi-line data, counts comments, and ignores unknown fields', () => {
    expect(parseSseFrame('id: 7\nevent: decided\nretry: 10\ndata: {"a":\ndata:1}')).toEqual({ id: '7', event: 'decided', data: '{"a":\n1}', comments: 0 });
    expect(parseSseFrame(': heartbeat')).toEqual({ id: '', event: 'message', data: null, comments: 1 });
  });

  it('takes only the frames a blank line ends and keeps the rest for the next chunk', () => {
    expect(takeSseFrames('data: 1\n\n: hb\n\ndata: 2')).toEqual({ frames: ['data: 1', ': hb'], rest: 'data: 2' });
  });
});
