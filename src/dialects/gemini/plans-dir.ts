/**
 * [G-RUN-1] `GEMINI_PLANS_DIR` as Gemini CLI 0.61 computes it (`Storage.getPlansDir()`):
 * `<home>/.gemini/tmp/<project>/<session>/plans`, where `<project>` is the short id Gemini CLI's
 * project registry (`config/projectRegistry`) gives the project folder:
 * 1. the id `~/.gemini/projects.json` maps the folder to, unless an ownership marker
 *    (`~/.gemini/tmp/<id>/.project_root`, `~/.gemini/history/<id>/.project_root`) names another
 *    folder;
 * 2. else an id whose marker names this folder;
 * 3. else the id it would claim: the folder's name lower-cased, each run of characters outside
 *    [a-z0-9] made one "-" (trimmed; empty: "project"), then `-1`, `-2`… while the registry or
 *    another folder's marker holds it.
 * Gemini CLI writes the registry and the markers when it claims an id; hookwerk only reads them
 * (it never takes Gemini CLI's lock nor writes its files), so a folder Gemini CLI has not seen
 * yet gets the id Gemini CLI will claim for it when nothing else claims that id first.
 */
import { readdirSync } from 'node:fs';
import path from 'node:path';
import { z } from 'zod';
import { parseBoundedJson } from '../../core/json-text.ts';
import { readSourceFile } from '../../core/read-source.ts';

const MARKER = '.project_root';
const MAX_REGISTRY_BYTES = 4 * 1024 * 1024;
const MAX_MARKER_BYTES = 64 * 1024;

/** The registry's shape, as Gemini CLI checks it: another shape counts as an empty registry. */
const Registry = z.object({ projects: z.record(z.string(), z.string().regex(/^[a-z0-9-]+$/)) });

/** `<home>/.gemini/tmp/<project>`: the session's plans folder is `<this>/<session>/plans`. */
export function geminiProjectTempDir(home: string, projectDir: string): string {
  return path.join(geminiDir(home), 'tmp', geminiProjectId(home, projectDir));
}

/** [G-RUN-1] `GEMINI_PLANS_DIR` for one session of the project whose temp folder is `projectTempDir`. */
export function geminiPlansDir(projectTempDir: string, sessionId: string): string {
  return path.join(projectTempDir, sessionId, 'plans');
}

function geminiDir(home: string): string {
  return path.join(home, '.gemini');
}

/** The project's short id, found as Gemini CLI's registry finds or claims it (see the file comment). */
export function geminiProjectId(home: string, projectDir: string): string {
  const project = path.resolve(projectDir);
  const baseDirs = [path.join(geminiDir(home), 'tmp'), path.join(geminiDir(home), 'history')];
  const projects = { ...readRegistry(path.join(geminiDir(home), 'projects.json')) };
  const mapped = projects[project];
  if (mapped !== undefined) {
    if (ownedBy(baseDirs, mapped, project)) return mapped;
    // A stale mapping frees its id, as Gemini CLI drops it before it looks further.
    delete projects[project];
  }
  return markedFor(baseDirs, project) ?? claimable(baseDirs, project, new Set(Object.values(projects)));
}

function readRegistry(file: string): Record<string, string> {
  const read = readSourceFile(file, MAX_REGISTRY_BYTES);
  if (read.kind !== 'text') return {};
  const parsed = parseBoundedJson(read.text);
  const registry = parsed.ok ? Registry.safeParse(parsed.value) : undefined;
  return registry?.success ? registry.data.projects : {};
}

type Marker = { owner: string } | 'none' | 'unreadable';

/** The folder a marker names (trimmed, resolved), `none` without a marker. */
function markerOf(baseDir: string, id: string): Marker {
  const read = readSourceFile(path.join(baseDir, id, MARKER), MAX_MARKER_BYTES);
  if (read.kind === 'missing') return 'none';
  if (read.kind !== 'text') return 'unreadable';
  return { owner: path.resolve(read.text.trim()) };
}

/** No marker of `id` names another folder (a missing marker is no objection). */
function ownedBy(baseDirs: readonly string[], id: string, project: string): boolean {
  return baseDirs.every((dir) => {
    const marker = markerOf(dir, id);
    return marker === 'none' || (marker !== 'unreadable' && marker.owner === project);
  });
}

/** An id whose marker already names the project, in the order the base folders list them. */
function markedFor(baseDirs: readonly string[], project: string): string | undefined {
  for (const dir of baseDirs) {
    for (const id of entriesOf(dir)) {
      const marker = markerOf(dir, id);
      if (marker !== 'none' && marker !== 'unreadable' && marker.owner === project) return id;
    }
  }
  return undefined;
}

function entriesOf(dir: string): string[] {
  try {
    return readdirSync(dir);
  } catch {
    return [];
  }
}

/** The first of `slug`, `slug-1`, `slug-2`… that neither the registry nor another folder holds. */
function claimable(baseDirs: readonly string[], project: string, taken: ReadonlySet<string>): string {
  const slug = slugify(path.basename(project) || 'project');
  for (let n = 0; ; n++) {
    const id = n === 0 ? slug : `${slug}-${n}`;
    if (!taken.has(id) && ownedBy(baseDirs, id, project)) return id;
  }
}

/** Lower case; each run of other characters one "-", none at either end; nothing left: "project". */
function slugify(name: string): string {
  const slug = name.toLowerCase().replace(/[^a-z0-9]+/g, '-');
  const trimmed = slug.slice(slug.startsWith('-') ? 1 : 0, slug.endsWith('-') ? -1 : undefined);
  return trimmed === '' ? 'project' : trimmed;
}
