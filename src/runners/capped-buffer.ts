/**
 * Keeps the first `cap` bytes of a stream (process output, HTTP answer); reports when more than
 * that arrived, so the runner can stop reading and say why the run ended.
 */
export class CappedBuffer {
  private readonly chunks: Buffer[] = [];
  private bytes = 0;

  constructor(private readonly cap: number) {}

  /** Returns false when the chunk did not fit: the content is truncated at exactly `cap` bytes. */
  push(chunk: Buffer): boolean {
    const room = this.cap - this.bytes;
    if (chunk.length <= room) {
      this.chunks.push(chunk);
      this.bytes += chunk.length;
      return true;
    }
    if (room > 0) this.chunks.push(chunk.subarray(0, room));
    this.bytes = Math.max(this.cap, 0);
    return false;
  }

  text(): string {
    if (this.chunks.length === 0) return '';
    if (this.chunks.length === 1) return this.chunks[0]!.toString('utf8');
    return Buffer.concat(this.chunks, this.bytes).toString('utf8');
  }
}
