/**
 * The links and heading anchors of a Markdown file, as GitHub renders them: enough for
 * test/docs-links.test.ts to say that every relative link of README.md and docs/ leads somewhere.
 */

/** A link as written: its target (path and optional `#anchor`) and the line it is on. */
export interface MarkdownLink {
  target: string;
  line: number;
}

/** Blanks fenced code blocks and inline code spans (keeping line numbers): links there are text. */
export function withoutCode(md: string): string {
  const lines = md.split('\n');
  let fence: string | undefined;
  const out = lines.map((line) => {
    const open = /^\s*(```+|~~~+)/.exec(line);
    if (fence !== undefined) {
      if (open?.[1]?.startsWith(fence)) fence = undefined;
      return '';
    }
    if (open?.[1] !== undefined) {
      fence = open[1];
      return '';
    }
    return line.replace(/(`+)[^`]*?\1/g, (m) => ' '.repeat(m.length));
  });
  return out.join('\n');
}

/** Every `[text](target)`, `![alt](target)`, `<img src>` and `<a href>` outside code. */
export function markdownLinks(md: string): MarkdownLink[] {
  const links: MarkdownLink[] = [];
  withoutCode(md)
    .split('\n')
    .forEach((text, i) => {
      for (const m of text.matchAll(/\]\(\s*<?([^)\s>]+)>?(?:\s+"[^"]*")?\s*\)/g)) {
        if (m[1] !== undefined) links.push({ target: m[1], line: i + 1 });
      }
      for (const m of text.matchAll(/<(?:img|a)\s[^>]*?(?:src|href)="([^"]+)"/g)) {
        if (m[1] !== undefined) links.push({ target: m[1], line: i + 1 });
      }
    });
  return links;
}

/** A link that leaves the repository (a URL, mail) is not checked here. */
export function isExternal(target: string): boolean {
  return /^[a-z][a-z0-9+.-]*:/i.test(target);
}

/** GitHub's anchor for a heading text (github-slugger): lower case, punctuation dropped, spaces → `-`. */
export function headingSlug(heading: string): string {
  const text = heading
    .replace(/!\[([^\]]*)\]\([^)]*\)/g, '$1')
    .replace(/\[([^\]]*)\]\([^)]*\)/g, '$1')
    .replace(/<[^>]+>/g, '')
    .replace(/`/g, '')
    .replace(/\*\*|__/g, '');
  return text
    .trim()
    .toLowerCase()
    .replace(/[^\p{L}\p{M}\p{N}\p{Pc}\- ]/gu, '')
    .replace(/ /g, '-');
}

/** The anchors a file offers: one per heading (repeats get `-1`, `-2`…), plus `<a id|name>`. */
export function markdownAnchors(md: string): Set<string> {
  const anchors = new Set<string>();
  const seen = new Map<string, number>();
  const lines = md.split('\n');
  const plain = withoutCode(md).split('\n');
  plain.forEach((text, i) => {
    const heading = /^#{1,6}\s+(.*?)\s*#*\s*$/.exec(text);
    if (heading?.[1] !== undefined) {
      // The heading's own text, code spans included (withoutCode blanked them).
      const raw = /^#{1,6}\s+(.*?)\s*#*\s*$/.exec(lines[i] ?? '')?.[1] ?? heading[1];
      const base = headingSlug(raw);
      const n = seen.get(base) ?? 0;
      seen.set(base, n + 1);
      anchors.add(n === 0 ? base : `${base}-${n}`);
    }
    for (const m of text.matchAll(/<a\s[^>]*?(?:id|name)="([^"]+)"/g)) {
      if (m[1] !== undefined) anchors.add(m[1]);
    }
  });
  return anchors;
}
