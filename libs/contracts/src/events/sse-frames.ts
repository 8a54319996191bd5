/** One frame (the lines before a blank line) of the `text/event-stream` format the event routes write (libs/http) and clients read (the CLI, tests): its fields, and its comment lines counted. */
export interface SseFrame {
  id: string;
  /** `message` when the frame names none. */
  event: string;
  /** The `data:` lines joined by newlines; null when the frame has none (a heartbeat comment, say). */
  data: string | null;
  comments: number;
}

/** Reads one frame; unknown fields are ignored, as the EventSource algorithm does. */
export function parseSseFrame(block: string): SseFrame {
  const frame: SseFrame = { id: '', event: 'message', data: null, comments: 0 };
  const data: string[] = [];
  for (const line of block.split('\n')) {
    if (line.startsWith(':')) {
      frame.comments += 1;
      continue;
    }
    if (line === '') continue;
    const colon = line.indexOf(':');
    const field = colon < 0 ? line : line.slice(0, colon);
    const value = colon < 0 ? '' : line.slice(colon + 1).replace(/^ /, '');
    if (field === 'id') frame.id = value;
    else if (field === 'event') frame.event = value;
    else if (field === 'data') data.push(value);
  }
  if (data.length > 0) frame.data = data.join('\n');
  return frame;
}

/** The complete frames at the head of `buffer` (each ended by a blank line), and the unfinished rest. */
export function takeSseFrames(buffer: string): { frames: string[]; rest: string } {
  const frames: string[] = [];
  let rest = buffer;
  let end: number;
  while ((end = rest.indexOf('\n\n')) >= 0) {
    frames.push(rest.slice(0, end));
    rest = rest.slice(end + 2);
  }
  return { frames, rest };
}
