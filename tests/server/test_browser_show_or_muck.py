"""Show or muck on the table page in a real browser (headless Debian Chromium, as tests/server/test_browser.py):
the page offers Show and Muck at a showdown played with ``show_or_muck``, clicking each sends it, and the
server's stored hand history says the hand was shown, or mucked."""

from __future__ import annotations

from typing import Any

import pytest

pytest.importorskip("playwright.sync_api", reason="the playwright package is not installed")
pytest.importorskip("uvicorn", reason="uvicorn is not installed (extra cardgame[server])")

from cardgame.model.events import CardsShown, HandEnded, HandMucked
from tests.server.test_browser import (  # noqa: F401  # the module's fixtures: its server, browser, page
    CHROMIUM,
    FAST,
    Served,
    browser,
    check_or_call,
    create_table,
    page,
    served,
    sit,
    words_only,
)

pytestmark = pytest.mark.skipif(CHROMIUM is None, reason="Chromium is not installed (Debian: apt-get install chromium)")


def test_show_and_muck_buttons_are_taken_by_the_server(page: Any, served: Served) -> None:  # noqa: F811
    """Call down against a calling station; at each showdown question click Show once and Muck once (on a
    contested pot), and find the stored ``CardsShown`` and ``HandMucked`` of seat 0 for those hands."""
    table_id = create_table(served.url, variant="NT", params={"show_or_muck": True, "ask_to_see": True},
                            **{**FAST, "max_buy_in": 400}, bots={"1": "calling-station"}, bot_buy_in=400)
    sit(page, served.url, table_id, "Sam", 400, 0)
    clicked: dict[str, int] = {}
    for _ in range(80):
        page.wait_for_function("!document.getElementById('question').hidden")
        q = page.evaluate("state.view.question")
        if q["kind"] != "show":
            check_or_call(page)
            continue
        page.wait_for_selector("#show:not([hidden]) #show-buttons button[data-action=show]")
        words_only(page)
        assert page.locator("#show-help").inner_text()
        assert page.locator("#show-buttons button[data-action=ask_to_see]").count() == (1 if q["ask"] else 0)
        hand = page.evaluate("state.view.table.hand")
        choice = "muck" if "show" in clicked and not q["awarded"] else "show"
        before = int(page.evaluate("document.body.dataset.seq"))
        page.click(f"#show-buttons button[data-action={choice}]")
        page.wait_for_function(f"Number(document.body.dataset.seq) > {before}")
        if q["awarded"]:
            continue  # an uncontested winner's show (or decline) is a courtesy: counted only when contested
        kind = CardsShown if choice == "show" else HandMucked
        served.wait_for(table_id, lambda e, n=hand: type(e) is HandEnded and e.hand == n, 1, f"hand #{hand}'s end")
        stored = served.store.hand_events(table_id, hand)
        assert [e for e in stored if type(e) is kind and e.seat == 0], stored
        if choice == "muck":
            assert not [e for e in stored if type(e) is CardsShown and e.seat == 0]  # mucked unshown
        clicked[choice] = hand
        if len(clicked) == 2:
            break
    assert set(clicked) == {"show", "muck"}, clicked
