/**
 * [G-ACT-1] The files a file tool names, from its Claude-shaped input (after R-MAP-1): the
 * `file_path`/`path`/`notebook_path` fields of Claude Code's tools, Gemini CLI's `absolute_path`,
 * `dir_path` and `read_many_files`' `paths`/`include` lists (mapped to `Read`), Copilot's mapped
 * `view`/`create`/`edit`, Cursor's `Delete`, and every file of a Codex `apply_patch` — read by Codex's own parser
 * (`patch-files.ts`), `*** Move to:` targets included.
 */
import { ownEntry } from '../core/plain-object.ts';
import type { PathRef } from './command-paths.ts';
import type { Access } from './file-access-table.ts';
import { type PatchChange, patchFiles } from './patch-files.ts';

/** What each file tool does to the files it names. */
export const TOOL_ACCESS: Readonly<Record<string, Access>> = {
  Read: 'read',
  NotebookRead: 'read',
  Glob: 'read',
  Grep: 'read',
  LS: 'read',
  Write: 'write',
  Edit: 'write',
  MultiEdit: 'write',
  NotebookEdit: 'write',
  /** Cursor's file delete (`preToolUse`, its name kept by R-MAP-1) [T-SELF-1]. */
  Delete: 'delete',
};

/** Fields that name one file or folder. */
const FIELDS = ['file_path', 'absolute_path', 'notebook_path', 'path', 'dir_path'] as const;
/** Fields that list files or globs to read (Gemini CLI's `read_many_files`, mapped to `Read`). */
const LISTS = ['paths', 'include'] as const;

const PATCH_ACCESS: Readonly<Record<PatchChange, Access>> = {
  add: 'write',
  update: 'write',
  delete: 'delete',
  'move-from': 'delete',
  'move-to': 'write',
};

function text(value: unknown): string | undefined {
  return typeof value === 'string' && value !== '' ? value : undefined;
}

/** `~` and `~/…` as the home folder (a tool field is no shell word, but models write it so). */
function tilde(p: string, home: string): string {
  return p === '~' || p.startsWith('~/') ? home + p.slice(1) : p;
}

/** The paths of a file tool's call; none for a tool that is no file tool. */
export function toolPaths(
  tool: string,
  input: Readonly<Record<string, unknown>>,
  cwd: string,
  home: string,
): PathRef[] {
  const out: PathRef[] = [];
  const add = (written: string, access: Access) =>
    out.push({ written: tilde(written, home), cwd, access, from: 'tool' });
  if (tool === 'apply_patch') {
    const patch = text(input.command) ?? text(input.patch) ?? text(input.input) ?? '';
    for (const file of patchFiles(patch).files)
      if (file.path !== '') add(file.path, PATCH_ACCESS[file.change]);
    return out;
  }
  const access = ownEntry(TOOL_ACCESS, tool);
  if (access === undefined) return out;
  for (const field of FIELDS) {
    const value = text(input[field]);
    if (value !== undefined) add(value, access);
  }
  if (access === 'read' && tool === 'Read')
    for (const field of LISTS) {
      const list = input[field];
      if (!Array.isArray(list)) continue;
      for (const item of list) {
        const value = text(item);
        if (value !== undefined) add(value, access);
      }
    }
  return out;
}
