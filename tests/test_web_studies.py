"""The Studies page: the published studies (never empty) and a folder's own,
answers first; in a real browser on a desktop and a phone."""

from __future__ import annotations

import json
import urllib.request
import warnings

import pytest

pytest.importorskip("fastapi")
with warnings.catch_warnings():
    warnings.simplefilter("ignore")
    from fastapi.testclient import TestClient

from boardlab.study import published  # noqa: E402
from boardlab.study.cli import main as study_main  # noqa: E402
from boardlab.web.app import create_app  # noqa: E402
from boardlab.web.settings import Settings  # noqa: E402


def _tiny_study(root) -> None:
    """A real study (random engine, so no compiled code) in ROOT/balance/tiny."""
    assert study_main(["robble", "--sizes", "4", "--option", "pie=yes,no", "--games", "3",
                       "--engine", "random", "--jobs", "1", "--quiet",
                       "--out", str(root / "balance" / "tiny")]) == 0


def test_published_studies_show_without_a_folder(tmp_path):
    names = published.names()
    assert names, "no published study: run bench/balance_doc.py"
    app = create_app(tmp_path / "games.sqlite3", engine_workers=0,
                     settings=Settings(studies_dir=str(tmp_path / "missing")))
    with TestClient(app) as client:
        rows = client.get("/api/studies").json()
        assert [r["name"] for r in rows] == [f"published/{n}" for n in names]
        assert all(r["verdicts"] and r["source"] == "published" for r in rows)
        page = client.get("/studies").text
        assert all(f"/studies/published/{n}" in page for n in names)
        assert page.count("<li class='v-") == sum(len(r["verdicts"]) for r in rows)
        one = client.get(f"/studies/published/{names[0]}")
        assert one.status_code == 200 and "<svg" in one.text and "class=verdicts" in one.text
        summary = client.get(f"/api/studies/published/{names[0]}").json()
        assert summary["games"] == rows[0]["games"] and summary["groups"]


def test_a_folder_study_is_listed_and_shown(tmp_path, capsys):
    root = tmp_path / "results"
    _tiny_study(root)
    (root / "secret.html").write_text("not a study")
    app = create_app(tmp_path / "games.sqlite3", engine_workers=0,
                     settings=Settings(studies_dir=str(root)))
    with TestClient(app) as client:
        rows = client.get("/api/studies").json()
        mine = [r for r in rows if r["source"] == "folder"]
        assert [(r["name"], r["game"], r["games"]) for r in mine] == [("balance/tiny", "robble", 6)]
        assert "Your studies" in client.get("/studies").text
        shown = client.get("/studies/balance/tiny")
        assert shown.status_code == 200 and "robble 4x4" in shown.text
        for bad in ("/studies/secret.html", "/studies/../games.sqlite3", "/studies/nope",
                    "/studies/published/nope", "/api/studies/nope"):
            assert client.get(bad).status_code == 404, bad


# ---------------------------------------------------------------- in a real browser
def _browser_marks():
    from browser_support import BROWSER_MARKS
    return BROWSER_MARKS


@pytest.fixture(scope="module")
def studies_server(tmp_path_factory):
    from browser_support import Server
    tmp = tmp_path_factory.mktemp("studies")
    _tiny_study(tmp / "results")
    srv = Server(tmp / "games.sqlite3", tmp / "server.log",
                 args=["--studies", str(tmp / "results")])
    srv.start()
    yield srv
    srv.stop()


#: in the page: every SVG text's drawn size in CSS px (its font-size times the
#: drawing's scale), the smallest per drawing
SMALLEST_TEXT = """() => [...document.querySelectorAll('figure svg')].map(svg => {
  const scale = svg.getBoundingClientRect().width / svg.viewBox.baseVal.width;
  const sizes = [...svg.querySelectorAll('text')].map(t => +t.getAttribute('font-size') * scale);
  return [svg.getAttribute('aria-label'), Math.min(...sizes)];
})"""


def _pick(url: str) -> tuple[str, str]:
    """A published study with several board sizes, and one with a swept option."""
    sizes = crossing = None
    for row in json.load(urllib.request.urlopen(url + "/api/studies")):
        s = json.load(urllib.request.urlopen(f"{url}/api/studies/{row['name']}"))
        if sizes is None and len({g["size"] for g in s["groups"]}) > 1:
            sizes = row["name"]
        if crossing is None and any(c.get("margin") for c in s["crossings"]):
            crossing = row["name"]
    assert sizes and crossing, "the published studies lack a size sweep or a komi sweep"
    return sizes, crossing


@pytest.mark.parametrize("viewport", [(1280, 900), (390, 844)], ids=["desktop", "phone"])
def test_studies_page_in_a_browser(studies_server, viewport, request):
    for mark in _browser_marks():
        request.applymarker(mark)
    from browser_support import ROOT, launch_chromium
    shots = ROOT / "test-artifacts" / "screenshots"
    shots.mkdir(parents=True, exist_ok=True)
    kind = "phone" if viewport[0] < 600 else "desktop"
    url = studies_server.url
    by_size, by_komi = _pick(url)
    with launch_chromium() as browser:
        ctx = browser.new_context(viewport={"width": viewport[0], "height": viewport[1]})
        page = ctx.new_page()
        errors: list[str] = []
        page.on("pageerror", lambda e: errors.append(str(e)))
        page.goto(url + "/")
        page.click("#nav-studies")                     # linked from the app's header
        page.wait_for_url(url + "/studies")
        assert page.text_content("h1") == "Balance studies"
        assert page.eval_on_selector("header.top", "h => getComputedStyle(h).backgroundColor") \
            == "rgb(34, 34, 34)"                       # the app's own style
        assert page.locator(".verdicts li").count() >= 2  # not empty: the answers
        assert page.evaluate("document.documentElement.scrollWidth") <= viewport[0]
        page.screenshot(path=str(shots / f"studies-index-{kind}.png"))

        page.click(f"a[href='/studies/{by_size}']")
        page.wait_for_selector("figure svg")
        first_answer = page.locator(".verdicts li").first.bounding_box()
        first_figure = page.locator("figure svg").first.bounding_box()
        assert first_answer["y"] < first_figure["y"]   # the answer, then the evidence
        assert page.evaluate("document.documentElement.scrollWidth") <= viewport[0]
        for label, px in page.evaluate(SMALLEST_TEXT):
            assert px >= 10.5, f"{label}: text drawn at {px:.1f} px"
        ticks = page.evaluate("""() => [...document.querySelectorAll(
            "svg[aria-label$='by board size'] text")].map(t => t.textContent)""")
        assert "7" in ticks and not [t for t in ticks if "." in t and t[0].isdigit()]
        lengths = page.locator("svg[aria-label^='game length,']").count()
        assert lengths == page.locator(".study tbody tr").count()  # one small histogram each
        pale = page.evaluate("""() => [...document.querySelectorAll(
            "svg[aria-label^='first moves'] rect")].filter(r => /: 1 game,/.test(r.textContent))
            .map(r => +(r.getAttribute('fill-opacity') || 1))""")
        assert pale and max(pale) < 0.5               # one game is not full colour
        page.screenshot(path=str(shots / f"studies-sizes-{kind}.png"), full_page=True)

        page.goto(f"{url}/studies/{by_komi}")
        margin = page.locator("svg[aria-label^='final margin against']").first
        assert margin.locator("line").count() >= 3 * 3   # a bar and two caps a value
        assert page.evaluate("document.documentElement.scrollWidth") <= viewport[0]
        page.screenshot(path=str(shots / f"studies-komi-{kind}.png"), full_page=True)

        page.goto(url + "/studies/balance/tiny")        # a folder's own study
        assert "robble 4x4" in page.text_content(".verdicts")
        ctx.close()
    assert not errors, errors
