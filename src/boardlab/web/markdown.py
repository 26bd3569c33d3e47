"""A tiny Markdown-to-HTML converter for the rules pages (no dependency).

It covers what the project's pages use: ``#`` headings, paragraphs, ``-``/``*``
and numbered lists (one level, with continuation lines), fenced and indented
code blocks, pipe tables, block quotes, and inline code, bold, italics and
links. Everything else is escaped and shown as text.
"""

from __future__ import annotations

import html
import re

_INLINE_CODE = re.compile(r"`([^`]+)`")
_BOLD = re.compile(r"\*\*(.+?)\*\*")
_ITALIC = re.compile(r"(?<![\w*])[*_](?![\s*_])(.+?)(?<![\s*_])[*_](?![\w*])")
_LINK = re.compile(r"\[([^\]]+)\]\(([^)\s]+)\)")
_LIST_ITEM = re.compile(r"(\s*)([-*+]|\d+[.)])\s+(.*)")
_TABLE_SEP = re.compile(r"^\s*\|?\s*:?-{2,}:?\s*(\|\s*:?-{2,}:?\s*)*\|?\s*$")


def inline(text: str) -> str:
    """Inline markup of one line of text (already unescaped Markdown)."""
    parts = _INLINE_CODE.split(text)
    out = []
    for i, part in enumerate(parts):
        if i % 2:
            out.append(f"<code>{html.escape(part)}</code>")
            continue
        s = html.escape(part, quote=False)
        s = _LINK.sub(lambda m: f'<a href="{html.escape(_safe_href(m.group(2)))}">{m.group(1)}</a>', s)
        s = _BOLD.sub(r"<strong>\1</strong>", s)
        s = _ITALIC.sub(r"<em>\1</em>", s)
        out.append(s)
    return "".join(out)


def _safe_href(href: str) -> str:
    return "#" if href.lower().startswith(("javascript:", "data:")) else href


def _split_row(line: str) -> list[str]:
    line = line.strip()
    line = line.removeprefix("|")
    if line.endswith("|") and not line.endswith("\\|"):
        line = line[:-1]
    cells = re.split(r"(?<!\\)\|", line)
    return [c.strip().replace("\\|", "|") for c in cells]


def to_html(md: str) -> str:
    lines = md.replace("\r\n", "\n").split("\n")
    out: list[str] = []
    i = 0
    n = len(lines)
    while i < n:
        line = lines[i]
        stripped = line.strip()
        if not stripped:
            i += 1
            continue
        if stripped.startswith("```"):
            i += 1
            code = []
            while i < n and not lines[i].strip().startswith("```"):
                code.append(lines[i])
                i += 1
            i += 1
            out.append(f"<pre><code>{html.escape(chr(10).join(code))}</code></pre>")
            continue
        if line.startswith(("    ", "\t")):
            code = []
            while i < n and (lines[i].startswith("    ") or lines[i].startswith("\t")
                             or not lines[i].strip()):
                code.append(lines[i][4:] if lines[i].startswith("    ") else lines[i].lstrip("\t"))
                i += 1
            while code and not code[-1].strip():
                code.pop()
            out.append(f"<pre><code>{html.escape(chr(10).join(code))}</code></pre>")
            continue
        m = re.match(r"(#{1,6})\s+(.*?)\s*#*\s*$", stripped)
        if m:
            level = len(m.group(1))
            out.append(f"<h{level}>{inline(m.group(2))}</h{level}>")
            i += 1
            continue
        if stripped.startswith("|") and i + 1 < n and _TABLE_SEP.match(lines[i + 1]):
            head = _split_row(stripped)
            i += 2
            rows = []
            while i < n and lines[i].strip().startswith("|"):
                rows.append(_split_row(lines[i]))
                i += 1
            t = ["<table><thead><tr>"]
            t += [f"<th>{inline(c)}</th>" for c in head]
            t.append("</tr></thead><tbody>")
            for r in rows:
                t.append("<tr>" + "".join(f"<td>{inline(c)}</td>" for c in r) + "</tr>")
            t.append("</tbody></table>")
            out.append("".join(t))
            continue
        if stripped.startswith(">"):
            quote = []
            while i < n and lines[i].strip().startswith(">"):
                quote.append(lines[i].strip()[1:].lstrip())
                i += 1
            out.append(f"<blockquote>{to_html(chr(10).join(quote))}</blockquote>")
            continue
        m = _LIST_ITEM.match(line)
        if m:
            ordered = m.group(2)[0].isdigit()
            items: list[str] = []
            while i < n:
                m = _LIST_ITEM.match(lines[i])
                if m and (m.group(2)[0].isdigit()) == ordered and len(m.group(1)) < 2:
                    items.append(m.group(3).strip())
                    i += 1
                elif lines[i].strip() and (lines[i].startswith("  ") or _LIST_ITEM.match(lines[i])):
                    items[-1] += " " + lines[i].strip()  # continuation or nested item, flattened
                    i += 1
                else:
                    break
            tag = "ol" if ordered else "ul"
            out.append(f"<{tag}>" + "".join(f"<li>{inline(it)}</li>" for it in items) + f"</{tag}>")
            continue
        para = []
        while i < n and lines[i].strip() and not _starts_block(lines, i):
            para.append(lines[i].strip())
            i += 1
        if not para:  # a line that looks like a block start but is not one
            para.append(lines[i].strip())
            i += 1
        out.append(f"<p>{inline(' '.join(para))}</p>")
    return "\n".join(out)


def _starts_block(lines: list[str], i: int) -> bool:
    s = lines[i].strip()
    if s.startswith(("```", "#", ">")) or _LIST_ITEM.match(lines[i]):
        return True
    if s.startswith("|") and i + 1 < len(lines) and _TABLE_SEP.match(lines[i + 1]):
        return True
    return lines[i].startswith("    ")
