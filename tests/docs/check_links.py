#!/usr/bin/python3
"""Every relative link and #anchor in README.md and docs/**/*.md resolves.

A link [text](target) or image ![alt](target) outside code is checked when its target is
not a URL: the file (or folder) must exist, relative to the page, and an #anchor must be
the slug of a heading of the page it points at, made as GitHub makes them (lower case,
punctuation other than '-' and '_' dropped, spaces to '-', a repeated slug gets -1, -2).
Prints every broken link as FILE:LINE: and exits 1; one line and exit 0 when all hold.
Usage: check_links.py [ROOT]   (ROOT: the repository, default: two folders up)
"""
import os
import re
import sys

ROOT = os.path.abspath(sys.argv[1] if len(sys.argv) > 1 else
                       os.path.join(os.path.dirname(__file__), '..', '..'))
LINK = re.compile(r'!?\[((?:[^\[\]]|\[[^\]]*\])*)\]\(\s*<?([^)\s>]*)>?(?:\s+"[^"]*")?\s*\)')
CODE_SPAN = re.compile(r'(`+)(?:.|\n)*?(?<!`)\1(?!`)')


def pages():
    yield os.path.join(ROOT, 'README.md')
    for folder, _, files in os.walk(os.path.join(ROOT, 'docs')):
        for f in sorted(files):
            if f.endswith('.md'):
                yield os.path.join(folder, f)


def prose_lines(path):
    """(line number, text) of the lines outside fenced code, code spans blanked."""
    fence = None
    with open(path, encoding='utf-8') as f:
        for n, line in enumerate(f, 1):
            m = re.match(r'^\s{0,3}(```+|~~~+)', line)
            if m:
                if fence is None:
                    fence = m.group(1)[0] * 3
                elif m.group(1).startswith(fence):
                    fence = None
                continue
            if fence is None:
                yield n, CODE_SPAN.sub(lambda s: ' ' * len(s.group(0)), line)


def slug(heading):
    text = re.sub(r'!?\[([^\]]*)\]\([^)]*\)', r'\1', heading)   # a link: its text
    text = re.sub(r'<[^>]+>', '', text).strip().lower()
    text = re.sub(r'[^\w\- ]', '', text)
    return text.replace(' ', '-')


ANCHORS = {}


def anchors(path):
    if path not in ANCHORS:
        seen, found, fence = {}, set(), None
        with open(path, encoding='utf-8') as f:
            for line in f:
                m = re.match(r'^\s{0,3}(```+|~~~+)', line)
                if m:
                    if fence is None:
                        fence = m.group(1)[0] * 3
                    elif m.group(1).startswith(fence):
                        fence = None
                    continue
                h = re.match(r'^\s{0,3}#{1,6}\s+(.*?)\s*#*\s*$', line)
                if fence is None and h:
                    s = slug(h.group(1))
                    n = seen.get(s, 0)
                    seen[s] = n + 1
                    found.add(s if n == 0 else '%s-%d' % (s, n))
        ANCHORS[path] = found
    return ANCHORS[path]


def main():
    bad = links = 0
    for page in pages():
        rel = os.path.relpath(page, ROOT)
        for n, line in prose_lines(page):
            for m in LINK.finditer(line):
                target = m.group(2)
                if not target or re.match(r'^[a-z][a-z0-9+.-]*:', target, re.I):
                    continue                                   # a URL, mailto:, ...
                links += 1
                path, _, anchor = target.partition('#')
                dest = page if not path else os.path.normpath(
                    os.path.join(os.path.dirname(page), path))
                if not os.path.exists(dest):
                    print('%s:%d: %s: no such file' % (rel, n, target))
                    bad += 1
                elif anchor and dest.endswith('.md') and anchor not in anchors(dest):
                    print('%s:%d: %s: %s has no heading with this anchor'
                          % (rel, n, target, os.path.relpath(dest, ROOT)))
                    bad += 1
    if bad:
        print('links: %d of %d relative links broken' % (bad, links))
        return 1
    print('links: %d relative links in README.md and docs/, every file and anchor found'
          % links)
    return 0


if __name__ == '__main__':
    sys.exit(main())
