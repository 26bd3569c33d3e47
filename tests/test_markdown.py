"""The rules-page renderer (boardlab.web.markdown): what the pages use renders,
hostile input renders safely and fast, and ``board`` blocks become diagrams."""

from __future__ import annotations

import json
import re
import time
from html import unescape

import pytest

import boardlab
from boardlab.rules import rules_text
from boardlab.web import markdown


def test_the_markup_the_pages_use():
    html = markdown.to_html("# T\n\nA *b* **c** `d<e>` [l](http://x)\n\n- one\n- two\n\n"
                            "1. x\n2. y\n\n```\ncode\n```\n\n| a | b |\n|---|---|\n| 1 | `x\\|y` |\n\n"
                            "> q\n")
    assert "<h1>T</h1>" in html and "<em>b</em>" in html and "<strong>c</strong>" in html
    assert "<code>d&lt;e&gt;</code>" in html and '<a href="http://x">l</a>' in html
    assert re.search(r"<ul>\s*<li>one</li>\s*<li>two</li>\s*</ul>", html)
    assert re.search(r"<ol>\s*<li>x</li>\s*<li>y</li>\s*</ol>", html)
    assert "<pre><code>code\n</code></pre>" in html and "<td><code>x|y</code></td>" in html
    assert re.search(r"<blockquote>\s*<p>q</p>\s*</blockquote>", html)


def test_bold_around_inline_code():
    # The hand-written renderer printed these asterisks literally (issue 19).
    html = markdown.to_html("**`swap=yes`** and **`last` is required**")
    assert "<strong><code>swap=yes</code></strong>" in html
    assert "<strong><code>last</code> is required</strong>" in html and "**" not in html


@pytest.mark.parametrize("href", [
    "javascript:alert(1)", "JaVaScRiPt:alert(1)", "vbscript:msgbox(1)", "data:text/html,x",
    "<\x01javascript:alert(1)>", "< javascript:alert(1)>", "<java\tscript:alert(1)>",
    "%01javascript:alert(1)", "file:///etc/passwd",
])
def test_unsafe_links_are_not_links(href):
    html = markdown.to_html(f"[click]({href}) ![img]({href})")
    assert "<a " not in html and "<img" not in html
    assert not markdown.safe_link(href.strip("<>"))


@pytest.mark.parametrize("href", ["http://x.org/a", "https://x.org", "mailto:a@b.org", "/rules/yugo",
                                  "#notation", "rules.md"])
def test_safe_links_stay(href):
    assert f'href="{href}"' in markdown.to_html(f"[l]({href})")


def test_raw_html_is_escaped():
    html = markdown.to_html("<script>alert(1)</script>\n\nx <img src=x onerror=alert(1)>")
    assert "<script" not in html and "<img" not in html and "&lt;script&gt;" in html


def test_pathological_links_are_fast():
    start = time.perf_counter()
    html = markdown.to_html("[a](" * 20_000)
    assert time.perf_counter() - start < 5, "20,000 unclosed links must not go quadratic"
    assert "<a " not in html


def test_deep_nesting_does_not_recurse_without_bound():
    html = markdown.to_html(">" * 2_000 + " deep\n\n" + "- " * 2_000 + "x")
    # Past MAX_NESTING levels markdown-it stops opening blocks: the page stays small
    # and well formed instead of raising RecursionError.
    assert 0 < html.count("<blockquote>") <= markdown.MAX_NESTING
    assert html.count("<blockquote>") == html.count("</blockquote>")
    assert html.count("<ul>") <= markdown.MAX_NESTING


# ---------------------------------------------------------------- diagrams
def test_board_block_becomes_a_diagram_with_the_pages_cells():
    html = markdown.to_html("```board\nrobble 5 5/5/2X2/5/5 white pie=yes swap=yes\n"
                            "last: c3\nmarks: b3, d3\ncaption: After Black's c3.\n```\n")
    m = re.search(r'<figure class="board-diagram" data-view="([^"]*)"', html)
    assert m, html
    data = json.loads(unescape(m.group(1)))
    assert data["game"] == "robble" and data["size"] == 5 and data["board"] == "squares"
    assert data["cells"][12] == {"type": "stone", "color": "black"}
    assert sum(c is not None for c in data["cells"]) == 1
    assert data["last_points"] == ["c3"] and data["marks"] == ["b3", "d3"]
    assert "<figcaption>After Black&#x27;s c3.</figcaption>" in html
    assert "<pre>robble 5 5/5/2X2/5/5 white pie=yes swap=yes</pre>" in html  # the no-script fallback


@pytest.mark.parametrize("block, reason", [
    ("", "empty board diagram"),
    ("robble 5 5/5/2Q2/5/5 white pie=yes", "board diagram 'robble 5 5/5/2Q2/5/5 white pie=yes'"),
    ("robble 5 5/5/2X2/5/5 white pie=yes\nlast: z9", "last: z9 not a point of a 5x5 board"),
    ("robble 5 5/5/2X2/5/5 white pie=yes\ncolour: red", "unknown line 'colour: red'"),
])
def test_a_bad_diagram_says_what_is_wrong(block, reason):
    with pytest.raises(markdown.DiagramError, match=re.escape(reason)):
        markdown.to_html(f"```board\n{block}\n```\n")


def test_other_fences_stay_code():
    html = markdown.to_html("```\nrobble 5 5/5/2X2/5/5 white\n```\n")
    assert "<pre><code>robble" in html and "board-diagram" not in html


@pytest.mark.parametrize("name", boardlab.GAMES)
def test_every_rules_page_renders_with_diagrams(name):
    html = markdown.to_html(rules_text(name))
    assert html.count('class="board-diagram"') >= 2, f"{name}: a player page needs diagrams"


def page_positions(name: str) -> list[str]:
    return re.findall(r"^```board\n(.+)$", rules_text(name), re.M)


# Each page's diagrams tell a story: replaying its moves on one diagram through
# the engine must give the next, so the pictures can never drift from the rules.
STORIES = {
    "implo": [(0, "@b1", 1), (1, "@a1", 2)],
    "yugo": [(0, "kc2", 1)],
    "pilo": [(0, "c2-c5", 1)],
    "vimbre": [(1, "xc3", 2)],
    "robble": [(0, "c2", 1)],
}


@pytest.mark.parametrize("name", sorted(STORIES))
def test_the_diagrams_follow_from_each_other_by_the_rules(name):
    positions = page_positions(name)
    for before, move, after in STORIES[name]:
        game = boardlab.from_position(positions[before])
        game.play(move)
        assert game.position() == positions[after], (name, move)


def test_the_vimbre_diagonal_diagram_says_what_the_engine_says():
    legal = boardlab.from_position(page_positions("vimbre")[0]).legal_moves()
    assert "d3" not in legal and "c3,d3" in legal and "d2,d3" in legal
