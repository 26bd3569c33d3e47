"""A test client that keeps owner tokens as the page does.

A game not played by link has an owner token (``tokens.owner`` in the answer
that created it); the page keeps it in the creator's browser and sends it as
``X-Seat-Token`` with every request about that game, and the list of its
tokens as ``X-Owner-Tokens`` with the saved-games list. This client does
the same, so the API tests exercise the server as it runs by default.
"""

from __future__ import annotations

import re
import warnings

with warnings.catch_warnings():  # starlette's note about httpx2 is not ours to act on
    warnings.simplefilter("ignore")
    from fastapi.testclient import TestClient

_GAME_URL = re.compile(r"/api/games/([^/?#]+)")


class BrowserClient(TestClient):
    """A TestClient that remembers each game's owner token and sends it."""

    def __init__(self, *args, tokens: dict[str, str] | None = None, **kwargs) -> None:
        """``tokens``: the tokens of another client, shared (the same browser
        after the server restarted)."""
        super().__init__(*args, **kwargs)
        self.owner_tokens: dict[str, str] = {} if tokens is None else tokens

    def request(self, method, url, **kwargs):  # type: ignore[override]
        path = str(url)
        headers = dict(kwargs.pop("headers", None) or {})
        m = _GAME_URL.search(path)
        if m and m.group(1) in self.owner_tokens and "X-Seat-Token" not in headers:
            headers["X-Seat-Token"] = self.owner_tokens[m.group(1)]
        if path.rstrip("/").endswith("/api/games") and method.upper() == "GET":
            headers.setdefault("X-Owner-Tokens", ",".join(self.owner_tokens.values()))
        response = super().request(method, url, headers=headers, **kwargs)
        if response.headers.get("content-type", "").startswith("application/json"):
            try:
                body = response.json()
            except ValueError:
                body = None
            if isinstance(body, dict) and isinstance(body.get("tokens"), dict) \
                    and "owner" in body["tokens"]:
                self.owner_tokens[body["id"]] = body["tokens"]["owner"]
        return response


# ---------------------------------------------------------------- processes (Linux /proc)
def children(pid: int) -> list[int]:
    """The processes whose parent is ``pid`` now."""
    from pathlib import Path
    out = []
    for entry in Path("/proc").iterdir():
        if entry.name.isdigit():
            try:
                fields = (entry / "stat").read_text().rsplit(")", 1)[1].split()
            except OSError:
                continue
            if int(fields[1]) == pid:
                out.append(int(entry.name))
    return out


def alive(pid: int) -> bool:
    """Whether ``pid`` runs (a zombie does not)."""
    from pathlib import Path
    try:
        return Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()[0] != "Z"
    except OSError:
        return False


def assert_gone(pids: list[int], within: float = 10.0) -> None:
    """Wait until none of ``pids`` runs; fail naming those still running."""
    import time
    deadline = time.monotonic() + within
    while any(alive(pid) for pid in pids):
        assert time.monotonic() < deadline, [p for p in pids if alive(p)]
        time.sleep(0.1)
