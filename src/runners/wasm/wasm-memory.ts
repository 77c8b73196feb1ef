import { errorMessage } from '../../core/errno.ts';

/**
 * The memory cap of a plugin [P-WASM-3], enforced in the module itself.
 *
 * Worker `resourceLimits` do not cover WebAssembly memory, and V8's `--wasm-max-mem-pages` is a
 * process-wide flag that a Worker refuses in its `execArgv` (ERR_WORKER_INVALID_EXEC_ARGV). So
 * before any core module of a component is compiled, its memory section is rewritten: every
 * memory the module *defines* gets a declared maximum, so that the maxima of all memories of the
 * component add up to at most `max_memory_mb`. `memory.grow` past a declared maximum returns -1
 * (the engine's own check, not a policy of ours). A memory whose initial size is already over
 * its share is refused at load. Imported memories need no change: inside a component they are
 * always some other core module's defined (and so capped) memory.
 */

const PAGE_BYTES = 65536;

interface MemoryLimits {
  min: number;
  max: number | undefined;
  shared: boolean;
}

class WasmReader {
  pos: number;
  constructor(
    readonly bytes: Uint8Array,
    start = 0,
  ) {
    this.pos = start;
  }
  byte(): number {
    if (this.pos >= this.bytes.length) throw new Error('unexpected end of module');
    return this.bytes[this.pos++]!;
  }
  u32(): number {
    let result = 0;
    let shift = 0;
    for (;;) {
      const b = this.byte();
      result += (b & 0x7f) * 2 ** shift;
      if ((b & 0x80) === 0) break;
      shift += 7;
      if (shift > 28) throw new Error('malformed LEB128');
    }
    if (result > 0xffffffff) throw new Error('malformed LEB128');
    return result;
  }
}

function u32leb(value: number): number[] {
  const out: number[] = [];
  let v = value >>> 0;
  do {
    let b = v & 0x7f;
    v >>>= 7;
    if (v !== 0) b |= 0x80;
    out.push(b);
  } while (v !== 0);
  return out;
}

const HEADER = [0x00, 0x61, 0x73, 0x6d, 0x01, 0x00, 0x00, 0x00];
const MEMORY_SECTION = 5;

interface Section {
  id: number;
  /** Offset of the section id byte. */
  at: number;
  start: number;
  end: number;
}

function sections(bytes: Uint8Array): Section[] {
  if (bytes.length < 8 || !HEADER.every((b, i) => bytes[i] === b))
    throw new Error('not a core WebAssembly module');
  const r = new WasmReader(bytes, 8);
  const out: Section[] = [];
  while (r.pos < bytes.length) {
    const at = r.pos;
    const id = r.byte();
    const size = r.u32();
    const start = r.pos;
    const end = start + size;
    if (end > bytes.length) throw new Error('section runs past the end of the module');
    out.push({ id, at, start, end });
    r.pos = end;
  }
  return out;
}

function parseLimits(r: WasmReader): MemoryLimits {
  const flags = r.byte();
  if (flags & 0x04) throw new Error('the module uses 64-bit memory, which hookwerk cannot cap');
  if (flags & ~0x03) throw new Error(`unsupported memory limits flags 0x${flags.toString(16)}`);
  const min = r.u32();
  const max = flags & 0x01 ? r.u32() : undefined;
  return { min, max, shared: (flags & 0x02) !== 0 };
}

/** The memories a core module defines (not those it imports). */
export function definedMemories(bytes: Uint8Array): MemoryLimits[] {
  const section = sections(bytes).find((s) => s.id === MEMORY_SECTION);
  if (section === undefined) return [];
  const r = new WasmReader(bytes, section.start);
  const count = r.u32();
  const out: MemoryLimits[] = [];
  for (let i = 0; i < count; i++) out.push(parseLimits(r));
  return out;
}

/** Returns a copy of `bytes` whose defined memories all declare a maximum of at most `maxPages`. */
export function capModuleMemory(bytes: Uint8Array, maxPages: number): Uint8Array {
  const section = sections(bytes).find((s) => s.id === MEMORY_SECTION);
  if (section === undefined) return bytes;
  const r = new WasmReader(bytes, section.start);
  const count = r.u32();
  const body: number[] = [...u32leb(count)];
  for (let i = 0; i < count; i++) {
    const lim = parseLimits(r);
    if (lim.min > maxPages)
      throw new Error(
        `its memory starts at ${lim.min} pages (${mib(lim.min)}), over the limit of ${maxPages} pages (${mib(maxPages)})`,
      );
    const max = lim.max === undefined ? maxPages : Math.min(lim.max, maxPages);
    body.push(0x01 | (lim.shared ? 0x02 : 0), ...u32leb(lim.min), ...u32leb(max));
  }
  if (r.pos !== section.end) throw new Error('malformed memory section');
  const newSection = [MEMORY_SECTION, ...u32leb(body.length), ...body];
  const out = new Uint8Array(section.at + newSection.length + (bytes.length - section.end));
  out.set(bytes.subarray(0, section.at), 0);
  out.set(newSection, section.at);
  out.set(bytes.subarray(section.end), section.at + newSection.length);
  return out;
}

/**
 * Caps every core module of a transpiled component so that the declared maxima of all defined
 * memories add up to at most `maxPages`. Throws (with a message for the plugin's record) when a
 * module cannot be capped.
 */
export function capComponentMemory(
  cores: Readonly<Record<string, Uint8Array>>,
  maxPages: number,
): { cores: Record<string, Uint8Array>; memories: number; pagesEach: number } {
  let memories = 0;
  for (const bytes of Object.values(cores)) memories += definedMemories(bytes).length;
  const pagesEach = memories > 0 ? Math.floor(maxPages / memories) : maxPages;
  if (pagesEach < 1) throw new Error(`${memories} memories cannot share ${maxPages} pages`);
  const out: Record<string, Uint8Array> = {};
  for (const [name, bytes] of Object.entries(cores)) {
    try {
      out[name] = capModuleMemory(bytes, pagesEach);
    } catch (err) {
      throw new Error(`core module ${name}: ${errorMessage(err)}`);
    }
  }
  return { cores: out, memories, pagesEach };
}

function mib(pages: number): string {
  return `${(pages * PAGE_BYTES) / 1048576} MiB`;
}
