/** Reads a whole SSE response into `{event, data}` records (tests only: the gateway never buffers). */
export interface SseRecord {
  event?: string;
  data: string;
}

export async function readSseEvents(res: Response): Promise<SseRecord[]> {
  const text = await res.text();
  return text
    .split(/\r?\n\r?\n/)
    .filter((block) => block.trim() !== '')
    .map((block) => {
      const record: SseRecord = { data: '' };
      for (const line of block.split(/\r?\n/)) {
        if (line.startsWith('event:')) record.event = line.slice(6).trim();
        else if (line.startsWith('data:')) record.data += line.slice(5).trim();
      }
      return record;
    });
}
