/** Reads a stream whole, refusing (with `onTooLarge`'s error) as soon as it passes `max` bytes. */
export async function readStreamCapped(
  stream: ReadableStream<Uint8Array>,
  max: number,
  onTooLarge: () => Error,
): Promise<Buffer> {
  const reader = stream.getReader();
  const chunks: Uint8Array[] = [];
  let size = 0;
  for (;;) {
    const { done, value } = await reader.read();
    if (done) break;
    size += value.byteLength;
    if (size > max) {
      await reader.cancel().catch(() => {});
      throw onTooLarge();
    }
    chunks.push(value);
  }
  return Buffer.concat(chunks);
}
