"""The table server's pages in a real browser: headless Chromium (Debian's ``chromium``, driven by
Playwright) opens the lobby and a table, sits down, plays by clicking, and the test checks what the
page shows. A screenshot of the table is kept in ``$CARDGAME_ARTIFACTS`` (default: the test's
temporary directory). Skipped when Playwright or Chromium is missing."""

from __future__ import annotations

import contextlib
import json
import os
import re
import shutil
import socket
import subprocess
import sys
import time
import urllib.request
from collections.abc import Callable, Iterator
from pathlib import Path
from typing import Any

import pytest

sync_api = pytest.importorskip("playwright.sync_api", reason="the playwright package is not installed")
uvicorn = pytest.importorskip("uvicorn", reason="uvicorn is not installed (extra cardgame[server])")

from cardgame.model.events import (  # noqa: E402  # noqa: E402
    ActionTaken,
    CardsDiscarded,
    CardsShown,
    ChipsAdded,
    Event,
    HandEnded,
    PlayerLeft,
    PlayerSatIn,
    PlayerSatOut,
    PotAwarded,
    RunsChosen,
)
from cardgame.server.app import create_app  # noqa: E402
from cardgame.server.config import Limits  # noqa: E402
from cardgame.store import EventStore  # noqa: E402
from tests.server.helpers import served_in_thread  # noqa: E402

CHROMIUM = shutil.which("chromium") or shutil.which("chromium-browser")
pytestmark = pytest.mark.skipif(CHROMIUM is None, reason="Chromium is not installed (Debian: apt-get install chromium)")

ARGS = ["--no-sandbox", "--disable-gpu", "--disable-quic", "--no-first-run", "--disable-background-networking",
        "--disable-component-update", "--disable-sync"]
RED, BLACK = "rgb(200, 16, 46)", "rgb(17, 17, 17)"  # table.css: hearts and diamonds, clubs and spades
WAIT = 15_000  # milliseconds: generous, the machine is shared


class Served:
    """The server the module's tests share: its address, and its event store, read as the tests go to
    check that the server took what the page sent."""

    def __init__(self, url: str, db: Path) -> None:
        self.url = url
        self.store = EventStore(str(db))

    def events(self, table_id: str) -> list[Event]:
        return [e.event for e in self.store.events(table_id)]

    def wait_for(self, table_id: str, test: Callable[[Event], bool], count: int, what: str) -> Event:
        """The ``count``-th (from 1) stored event of ``table_id`` passing ``test``, waiting for it."""
        deadline = time.monotonic() + WAIT / 1000
        while True:
            found = [e for e in self.events(table_id) if test(e)]
            if len(found) >= count:
                return found[count - 1]
            assert time.monotonic() < deadline, f"the server did not record {what}; it holds {found}"
            time.sleep(0.05)


@pytest.fixture(scope="module")
def served(tmp_path_factory: pytest.TempPathFactory) -> Iterator[Served]:
    """The app under uvicorn in a thread, on a free loopback port, recording to an SQLite store."""
    db = tmp_path_factory.mktemp("browser") / "tables.db"
    limits = Limits(tables_per_client=100, min_action_time=0.05)
    with served_in_thread(create_app(str(db), limits=limits)) as port:
        result = Served(f"http://127.0.0.1:{port}", db)
        yield result
        result.store.close()


@pytest.fixture(scope="module")
def base_url(served: Served) -> str:
    return served.url


@pytest.fixture(scope="module")
def browser() -> Iterator[Any]:
    with sync_api.sync_playwright() as p:
        chromium = p.chromium.launch(executable_path=CHROMIUM, args=ARGS)
        yield chromium
        chromium.close()


@pytest.fixture
def page(browser: Any) -> Iterator[Any]:
    """A fresh page (its own storage); a JavaScript error in it fails the test."""
    context = browser.new_context(viewport={"width": 1300, "height": 900})
    context.set_default_timeout(WAIT)
    page = context.new_page()
    errors: list[str] = []
    page.on("pageerror", lambda exc: errors.append(str(exc)))
    yield page
    context.close()
    assert not errors, f"JavaScript errors: {errors}"


def create_table(base_url: str, **body: Any) -> str:
    body.pop("seed", None)  # a client may not choose a seed (docs/server.md, Provably fair dealing)
    request = urllib.request.Request(f"{base_url}/api/tables", data=json.dumps(body).encode(),
                                     headers={"Content-Type": "application/json"}, method="POST")
    with urllib.request.urlopen(request, timeout=10) as response:
        assert response.status == 201
        table_id: str = json.load(response)["id"]
    return table_id


def artefact(tmp_path: Path, name: str) -> Path:
    folder = Path(os.environ.get("CARDGAME_ARTIFACTS") or tmp_path)
    folder.mkdir(parents=True, exist_ok=True)
    return folder / name


def sit(page: Any, base_url: str, table_id: str, name: str, buy_in: int, seat: int) -> None:
    page.goto(f"{base_url}/table/{table_id}")
    page.wait_for_selector("#sit-form:not([hidden])")
    page.fill("#sit-name", name)
    page.fill("#sit-buy-in", str(buy_in))
    page.select_option("#sit-seat", str(seat))
    page.click("#sit-submit")
    page.wait_for_selector(f'.seat.you[data-seat="{seat}"]')


def seq(page: Any) -> int:
    return int(page.evaluate("document.body.dataset.seq"))


def check_or_call(page: Any) -> None:
    """Click check if offered, else call, and wait for the view that follows."""
    words_only(page)
    before = seq(page)
    for action in ("check", "call"):
        button = page.locator(f"#action-buttons button[data-action={action}]")
        if button.count():
            button.first.click()
            break
    else:
        raise AssertionError(f"neither check nor call offered: {page.inner_text('#question')!r}")
    page.wait_for_function(f"Number(document.body.dataset.seq) > {before}")


def wait_for_question_or(page: Any, done: str) -> bool:
    """Wait until a question of ours is on screen (False) or the ``done`` selector is there (True)."""
    page.wait_for_function(f"!document.getElementById('question').hidden || !!document.querySelector({done!r})")
    return bool(page.locator(done).count())


def seat_cards(page: Any, seat: int) -> list[dict[str, Any]]:
    """Each card of ``seat`` as the page shows it: its code ("" when face down), classes and colour."""
    result: list[dict[str, Any]] = page.eval_on_selector_all(
        f'.seat[data-seat="{seat}"] .card',
        "cards => cards.map(c => ({card: c.dataset.card, cls: [...c.classList], colour: getComputedStyle(c).color}))")
    return result


def chips_shown(page: Any) -> int:
    """Every stack on the page plus the pot."""
    stacks = page.eval_on_selector_all(".seat .stack", "nodes => nodes.map(n => Number(n.dataset.amount))")
    return int(sum(stacks)) + int(page.get_attribute("#pot", "data-amount"))


def test_a_hand_of_holdem_against_a_bot(page: Any, base_url: str, tmp_path: Path) -> None:
    table_id = create_table(base_url, variant="NT", params={"small_blind": 1, "big_blind": 2}, seats=6,
                            bots={"1": "calling-station"}, bot_buy_in=100, seed=11, name="browser test")
    page.goto(f"{base_url}/table/{table_id}")
    # a spectator: the bot waits alone, the form offers the free seats
    page.wait_for_selector('.seat[data-seat="1"] .marker.bot')
    assert page.inner_text("#table-name") == "browser test"
    assert "0" in page.eval_on_selector_all("#sit-seat option", "os => os.map(o => o.value)")

    name = "<i>Ann</i>"  # a name is the player's to choose: it must show as text, never as markup
    sit(page, base_url, table_id, name, 150, 0)
    token = page.evaluate(f"localStorage.getItem('cardgame.token.{table_id}')")
    assert token and len(token) >= 24
    assert page.inner_text('.seat.you[data-seat="0"] .name') == name
    assert page.locator(".seat i").count() == 0
    assert page.locator("#sit-form").is_hidden() and page.locator("#controls").is_visible()

    hand_over = '#log li[data-kind="hand ended"]'
    decisions = 0
    while not wait_for_question_or(page, hand_over):
        decisions += 1
        mine, bots = seat_cards(page, 0), seat_cards(page, 1)
        assert len(mine) == 2 and all(re.fullmatch(r"[2-9TJQKA][cdhs]", c["card"]) for c in mine)
        for card in mine:  # suit colours: hearts and diamonds red, clubs and spades black
            assert card["colour"] == (RED if card["card"][1] in "hd" else BLACK), card
        assert len(bots) == 2 and all(c["card"] == "" and "back" in c["cls"] for c in bots)  # hidden
        assert re.fullmatch(r"(time bank )?\d+ s", page.inner_text('.seat[data-seat="0"] .clock'))
        assert chips_shown(page) == 250
        if decisions == 1:
            assert page.get_attribute("#pot", "data-amount") == "3"  # the blinds
            assert page.locator("#action-buttons button[data-action=fold]").is_visible()
            assert page.locator("#raise-button").is_visible()
            assert page.locator("#presets button").count() == 3
        check_or_call(page)
        assert decisions < 20, "the hand did not end"
    assert decisions >= 4  # one a street

    log = page.eval_on_selector_all("#log li", "items => items.map(i => [i.dataset.kind, i.textContent])")
    texts = [text for _, text in log]
    assert any(kind == "hand started" for kind, _ in log)
    assert any(kind == "board" for kind, _ in log)
    shown = [text for kind, text in log if kind == "shown" and "calling-station" in text]
    assert shown and re.search(r"[2-9TJQKA][cdhs]", shown[0]), texts  # the bot's cards, at the showdown
    ended = next(text for kind, text in log if kind == "hand ended")
    assert name in ended and sum(int(n) for n in re.findall(r" (\d+)(?=,|$)", ended)) == 250, ended
    assert chips_shown(page) == 250  # stacks and pot after the hand (the next one may have started)
    bot_shown = page.eval_on_selector_all('#last-hand li.shown[data-seat="1"] .card',
                                          "cs => cs.map(c => c.dataset.card)")
    assert len(bot_shown) == 2 and all(re.fullmatch(r"[2-9TJQKA][cdhs]", c) for c in bot_shown)
    assert "pot of" in page.inner_text("#last-hand li.won").lower()
    page.screenshot(path=str(artefact(tmp_path, "table.png")))

    # a reload resumes the seat with the stored token: no form, the same seat, a full view
    page.reload()
    page.wait_for_selector('.seat.you[data-seat="0"]')
    assert page.locator("#sit-form").is_hidden()
    assert page.evaluate(f"localStorage.getItem('cardgame.token.{table_id}')") == token

    # a dropped connection reconnects by itself and resumes the seat, and the page says so in words
    page.evaluate("state.ws.close()")
    page.wait_for_function("document.getElementById('status').dataset.state === 'offline'")
    assert page.inner_text("#status") == "Reconnecting…"
    assert page.inner_text("#log li[data-note=reconnecting]") == "The connection to the table was lost. Reconnecting…"
    page.wait_for_function("document.getElementById('status').dataset.state === 'connected'")
    page.wait_for_selector('.seat.you[data-seat="0"]')
    assert page.inner_text("#log li[data-note=reconnected]") == "Reconnected."

    # a view that skips events is not shown: the page notes the gap and reconnects to resynchronise
    page.evaluate("""handle({...state.view, full: false, seq: state.seq + 3,
                             events: [{seq: state.seq + 2, kind: "action", text: "forged line"}]})""")
    page.wait_for_selector("#log li[data-note=resync]")
    assert "Missed events" in page.inner_text("#log li[data-note=resync]")
    page.wait_for_function("document.getElementById('status').dataset.state === 'connected'")
    page.wait_for_selector('.seat.you[data-seat="0"]')
    assert "forged line" not in page.inner_text("#log")
    assert page.locator('#log li[data-kind="hand started"]').count() >= 1

    # the four-colour deck recolours diamonds and clubs
    page.check("#four-colour")
    page.wait_for_function("document.body.classList.contains('four-colour')")
    cards = page.eval_on_selector_all(".card[data-card]:not([data-card=''])",
                                      "cs => cs.map(c => [c.dataset.card, getComputedStyle(c).color])")
    assert cards
    for card, colour in cards:
        assert (colour in (RED, BLACK)) == (card[1] in "hs"), (card, colour)


def test_stud_shows_up_cards(page: Any, base_url: str) -> None:
    table_id = create_table(base_url, variant="F7S", seats=2, bots={"1": "calling-station"}, bot_buy_in=100, seed=2)
    sit(page, base_url, table_id, "Stu", 100, 0)
    page.wait_for_selector("#question:not([hidden])")
    mine, bots = seat_cards(page, 0), seat_cards(page, 1)
    # third street: two down cards and one up; the bot's down cards are backs, its up card shows
    assert [("up" in c["cls"], c["card"] != "") for c in mine] == [(False, True), (False, True), (True, True)]
    assert [("up" in c["cls"], c["card"] != "") for c in bots] == [(False, False), (False, False), (True, True)]
    assert all("down" in c["cls"] for c in mine[:2])
    assert page.locator("#action-buttons button").count() >= 2


def test_the_lobby_lists_and_creates_tables(page: Any, base_url: str) -> None:
    table_id = create_table(base_url, variant="PO", bots={"2": "seed-ai"}, name="lobby test")
    page.goto(base_url)
    row = page.locator(f'#tables tr[data-table="{table_id}"]')
    row.wait_for()
    assert "lobby test" in row.inner_text() and "1/2" in row.inner_text() and "seed-ai" in row.inner_text()
    page.wait_for_selector("#params [data-param=small_blind]")
    assert page.input_value("#params [data-param=big_blind]") == "2"  # hold'em's defaults

    page.fill("#name", "made by clicking")
    page.fill("#min_buy_in", "500")
    page.fill("#max_buy_in", "100")
    page.click("#create-submit")
    page.wait_for_selector("#create-error:not([hidden])")
    assert "min_buy_in" in page.inner_text("#create-error")  # the server's 400, shown as it said it

    page.fill("#min_buy_in", "40")
    offered = page.eval_on_selector_all('[data-bot-seat="1"] option', "os => os.map(o => o.value)")
    assert offered[0] == "" and {"calling-station", "seed-ai"} <= set(offered)  # GET /api/bots
    page.select_option('[data-bot-seat="1"]', "calling-station")
    page.click("#create-submit")
    page.wait_for_url(re.compile(r"/table/[^/]+$"))
    page.wait_for_selector('.seat[data-seat="1"] .marker.bot')
    assert page.inner_text("#table-name") == "made by clicking"


# --- every control, clicked for real, and taken by the server -------------------------------------------

FAST = {"seats": 2, "bot_delay": 0, "hand_pause": 0, "min_buy_in": 40, "max_buy_in": 200}
NOT_SHOWN = re.compile(r"\b(None|null|undefined|NaN)\b")  # a value the page failed to put in words


def mine(seat: int = 0, kind: type = ActionTaken) -> Callable[[Event], bool]:
    """A test for ``seat``'s stored events of type ``kind``."""
    return lambda e: type(e) is kind and getattr(e, "seat", None) == seat


def question(page: Any) -> dict[str, Any]:
    """The question on screen (the page's copy of the server's)."""
    q: dict[str, Any] = page.evaluate("state.view.question")
    return q


def words_only(page: Any) -> None:
    """No value the page could not put in words reaches the screen."""
    text = page.inner_text("body")
    assert not NOT_SHOWN.search(text), NOT_SHOWN.findall(text)


def click_and_wait(page: Any, selector: str) -> None:
    """Click ``selector`` and wait for the view that answers it."""
    before = seq(page)
    page.click(selector)
    page.wait_for_function(f"Number(document.body.dataset.seq) > {before}")


def finish_hand(page: Any) -> None:
    """Fold (or check, or bring in) until the hand in progress has ended."""
    ends = "#log li[data-kind='hand ended']"
    ended = page.locator(ends).count()
    for _ in range(20):
        page.wait_for_function(f"!document.getElementById('question').hidden || "
                               f"document.querySelectorAll({ends!r}).length > {ended}")
        if page.locator(ends).count() > ended:
            return
        offered = page.eval_on_selector_all("#action-buttons button", "bs => bs.map(b => b.dataset.action)")
        action = next(a for a in ("fold", "check", "bring_in", "call") if a in offered)
        click_and_wait(page, f"#action-buttons button[data-action={action}]")
    raise AssertionError("the hand did not end")


def test_every_no_limit_betting_control_is_taken_by_the_server(page: Any, served: Served) -> None:
    """Typed amounts (by button and by Enter), the slider, the Min, Pot and All-in presets: each sends
    the amount on screen, and the server records exactly that bet or raise. No "None", "null",
    "undefined" or "NaN" shows meanwhile."""
    table_id = create_table(served.url, variant="NT", params={"small_blind": 1, "big_blind": 2}, **FAST,
                            bots={"1": "calling-station"}, bot_buy_in=200)
    sit(page, served.url, table_id, "Nola", 200, 0)
    steps = ["typed", "enter", "slider", "min", "pot", "all_in"]
    taken = 0
    for _ in range(40):
        if not steps:
            break
        page.wait_for_selector("#question:not([hidden])")
        words_only(page)
        q = question(page)
        r = q["raise"]
        if r is None or r["max"] - r["min"] < 4:
            check_or_call(page)
            continue
        step = steps.pop(0)
        slider, typed = page.locator("#raise-slider"), page.locator("#raise-amount")
        if step == "typed":
            expected = r["min"] + 1
            typed.fill(str(expected))
        elif step == "enter":
            expected = r["min"] + 2
            typed.fill(str(expected))
        elif step == "slider":
            expected = r["min"] + 3
            slider.focus()
            for _ in range(3):
                page.keyboard.press("ArrowRight")
            assert typed.input_value() == str(expected)  # the slider moves the amount box
        elif step == "min":
            expected = r["min"]
            page.click("#presets button[data-preset=pot]")
            page.click("#presets button[data-preset=min]")
        elif step == "pot":
            expected = r["pot"]
            page.click("#presets button[data-preset=pot]")
        else:
            expected = r["max"]
            page.click("#presets button[data-preset=all_in]")
        word = "Bet" if r["is_bet"] else "Raise to"
        label = page.inner_text("#raise-button")
        assert label.startswith(f"{word} {expected}"), (step, label)
        before = seq(page)
        if step == "enter":
            typed.press("Enter")
        else:
            page.click("#raise-button")
        taken += 1
        event = served.wait_for(table_id, mine(), taken, f"{step}: a bet or raise to {expected}")
        assert isinstance(event, ActionTaken)
        assert (event.action, event.to) == ("bet" if r["is_bet"] else "raise", expected), (step, event)
        assert event.all_in == (step == "all_in"), event
        page.wait_for_function(f"Number(document.body.dataset.seq) > {before}")
        assert page.locator("#error").is_hidden(), page.inner_text("#error")
        assert not [e for e in served.events(table_id) if type(e) is ActionTaken and e.seat == 0
                    and e.action in ("check", "call", "fold")][taken:], "a click made another action"
    assert not steps, f"never offered a raise for {steps}"
    page.wait_for_selector('#log li[data-kind="hand ended"]')
    words_only(page)


def test_fixed_limit_and_pot_limit_sizes(page: Any, served: Served) -> None:
    """Fixed limit: the one-size button ("Raise to 4", "Bet 2", "Bet 4") is taken at that size on the
    small- and big-bet streets. Pot limit: Pot raises to the pot (6 facing the blinds, 1/2), the most
    allowed."""
    table_id = create_table(served.url, variant="FT", **FAST, bots={"1": "calling-station"}, bot_buy_in=200)
    sit(page, served.url, table_id, "Lim", 200, 0)
    sizes: dict[str, set[int]] = {}
    taken = 0
    ended = '#log li[data-kind="hand ended"]'
    while not wait_for_question_or(page, ended):
        r = question(page)["raise"]
        if r is None:
            check_or_call(page)
            continue
        assert r["min"] == r["max"] and page.locator("#raise-row").is_hidden()
        button = page.locator("#raise-button")
        word = "Bet" if r["is_bet"] else "Raise to"
        assert button.inner_text() == f"{word} {r['min']}"
        street = page.evaluate("state.view.table.street")
        click_and_wait(page, "#raise-button")
        taken += 1
        event = served.wait_for(table_id, mine(), taken, f"a fixed-limit {word.lower()} {r['min']}")
        assert isinstance(event, ActionTaken) and event.to == r["min"], event
        sizes.setdefault(street, set()).add(r["min"])
    assert sizes.get("flop") and sizes.get("turn"), sizes
    assert min(sizes["flop"]) == 2 and min(sizes["turn"]) == 4, sizes  # the small bet, then the big bet

    table_id = create_table(served.url, variant="PO", params={"small_blind": 1, "big_blind": 2}, **FAST,
                            bots={"1": "calling-station"}, bot_buy_in=200)
    page.goto("about:blank")
    sit(page, served.url, table_id, "Pol", 200, 0)
    page.wait_for_selector("#question:not([hidden])")
    r = question(page)["raise"]
    assert r["pot"] == r["max"] == 6 and page.inner_text("#raise-button").startswith("Raise to")
    page.click("#presets button[data-preset=pot]")
    assert page.input_value("#raise-amount") == "6"
    click_and_wait(page, "#raise-button")
    event = served.wait_for(table_id, mine(), 1, "a pot-sized raise")
    assert isinstance(event, ActionTaken) and (event.action, event.to, event.all_in) == ("raise", 6, False), event


def test_stud_bring_in_and_completion(page: Any, served: Served) -> None:
    """Seven-card stud: the low card brings in with "Bring in 2", and "Complete to 5" completes (instead
    of the bring-in, or over the bot's): the server records each."""
    table_id = create_table(served.url, variant="F7S", **FAST, bots={"1": "calling-station"}, bot_buy_in=200)
    sit(page, served.url, table_id, "Stu", 200, 0)
    brought = completed = 0
    for _ in range(16):
        if brought and completed:
            break
        page.wait_for_selector("#question:not([hidden])")
        q = question(page)
        if q["bring_in"] and not brought:
            assert page.inner_text("#action-buttons button[data-action=bring_in]") == f"Bring in {q['bring_in']}"
            click_and_wait(page, "#action-buttons button[data-action=bring_in]")
            brought += 1
            event = served.wait_for(table_id, lambda e: mine()(e) and e.action == "bring-in", brought, "a bring-in")
            assert isinstance(event, ActionTaken) and event.amount == q["bring_in"]
        elif q["raise"] and q["raise"]["complete"]:
            assert page.inner_text("#raise-button") == f"Complete to {q['raise']['min']}"
            click_and_wait(page, "#raise-button")
            completed += 1
            event = served.wait_for(table_id, lambda e: mine()(e) and e.action in ("bet", "raise"), completed,
                                    "a completion")
            assert isinstance(event, ActionTaken) and event.to == q["raise"]["min"] == 5
        else:
            continue_ = page.locator("#action-buttons button[data-action=fold]")
            click_and_wait(page, "#action-buttons button[data-action=fold]" if continue_.count()
                           else "#action-buttons button[data-action=check]")
            continue
        finish_hand(page)
    assert brought and completed, (brought, completed)


def test_draw_toggles_discard_the_chosen_cards(page: Any, served: Served) -> None:
    table_id = create_table(served.url, variant="F2L3D", **FAST, bots={"1": "calling-station"}, bot_buy_in=100)
    sit(page, served.url, table_id, "Dee", 100, 0)
    for _ in range(10):
        if wait_for_question_or(page, "#draw:not([hidden])"):
            break
        check_or_call(page)
    toggles = page.locator("#draw-cards button[data-card]")
    assert toggles.count() == 5
    submit = page.locator("#draw-submit")
    assert submit.inner_text() == "Stand pat" and submit.is_enabled()
    picked = [toggles.nth(i).get_attribute("data-card") for i in (1, 2, 4)]
    for i in (1, 2, 4, 3):
        toggles.nth(i).click()
    assert toggles.nth(3).get_attribute("aria-pressed") == "true"
    toggles.nth(3).click()  # changed my mind: that one stays
    assert toggles.nth(3).get_attribute("aria-pressed") == "false"
    assert submit.inner_text() == "Discard 3"
    click_and_wait(page, "#draw-submit")
    event = served.wait_for(table_id, mine(kind=CardsDiscarded), 1, "the discards")
    assert isinstance(event, CardsDiscarded) and [str(c) for c in event.cards] == picked
    page.wait_for_selector('#log li[data-kind="discarded"]')
    assert page.locator("#log li[data-kind=discarded]:text-matches('^Dee discards 3: ')").count() == 1
    now = [c["card"] for c in seat_cards(page, 0)]
    assert len(now) == 5 and not set(picked) & set(now)


def test_run_it_twice_muck_and_top_up(page: Any, served: Served) -> None:
    """All in against a shove: "Twice" runs the board twice; in another hand "Muck" gives the pot up
    unshown; a player who went broke tops up and sits in."""
    table_id = create_table(served.url, variant="NT", params={"run_it_twice": True}, **FAST, bots={"1": "all-in"},
                            bot_buy_in=200)
    sit(page, served.url, table_id, "Rut", 200, 0)
    topped = 0
    for choice in ("2", "muck"):
        for _ in range(6):
            if wait_for_question_or(page, "#runs:not([hidden])"):
                break
            check_or_call(page)  # the bot is all in: calling puts us all in too
        hand = page.evaluate("state.view.table.hand")
        if choice == "2":
            click_and_wait(page, '#runs-buttons button[data-runs="2"]')
            event = served.wait_for(table_id, mine(kind=RunsChosen), 1, "run it twice")
            assert isinstance(event, RunsChosen) and event.runs == 2
        else:
            page.click("#runs-buttons button[data-action=muck]")
        served.wait_for(table_id, lambda e, n=hand: type(e) is HandEnded and e.hand == n, 1, f"hand #{hand}'s end")
        if choice == "muck":
            store = served.store.hand_events(table_id, hand)
            assert not [e for e in store if type(e) is CardsShown and e.seat == 0]  # never shown
            pots = [e for e in store if type(e) is PotAwarded]
            assert pots and all(e.winners == (1,) for e in pots), pots
            assert not [e for e in store if type(e) is RunsChosen and e.seat == 0]
        # went broke: top up between hands and sit in again
        page.wait_for_function(f"state.view.table.hand !== {hand} || state.view.table.seats.some("
                               "s => s.seat === 0 && s.stack === 0)")
        if page.evaluate("state.view.table.seats.find(s => s.seat === 0).stack") == 0:
            page.fill("#top-up-amount", "150")
            page.click("#top-up")
            topped += 1
            event = served.wait_for(table_id, mine(kind=ChipsAdded), topped, "the top-up")
            assert isinstance(event, ChipsAdded) and event.amount == 150
            if page.locator("#sit-in:not([hidden])").count():
                page.click("#sit-in")


def test_sit_out_top_up_sit_in_and_leave(page: Any, served: Served) -> None:
    table_id = create_table(served.url, variant="NT", **FAST, bots={"1": "calling-station"}, bot_buy_in=100)
    sit(page, served.url, table_id, "Cal", 100, 0)
    page.wait_for_selector("#question:not([hidden])")
    page.click("#sit-out")
    page.wait_for_selector("#sit-in:not([hidden])")
    served.wait_for(table_id, mine(kind=PlayerSatOut), 1, "sitting out")
    assert "sitting out" in page.inner_text('.seat.you[data-seat="0"]')

    page.fill("#top-up-amount", "10")  # in a hand: refused, and the page says why
    page.click("#top-up")
    page.wait_for_selector("#error:not([hidden])")
    assert page.inner_text("#error").strip()
    words_only(page)
    finish_hand(page)  # then nobody is dealt in (the bot does not play alone): top up between hands
    page.fill("#top-up-amount", "10")
    page.click("#top-up")
    event = served.wait_for(table_id, mine(kind=ChipsAdded), 1, "the top-up")
    assert isinstance(event, ChipsAdded) and event.amount == 10

    page.click("#sit-in")
    page.wait_for_selector("#sit-out:not([hidden])")
    served.wait_for(table_id, mine(kind=PlayerSatIn), 1, "sitting in")
    page.click("#leave")
    assert page.inner_text("#leave") == "Click again to leave"  # one stray click does not cash out
    page.click("#leave")
    page.wait_for_selector("#sit-form:not([hidden])")
    assert page.evaluate(f"localStorage.getItem('cardgame.token.{table_id}')") is None
    served.wait_for(table_id, lambda e: type(e) is PlayerLeft and e.seat == 0, 1, "leaving")
    assert re.fullmatch(r"You left the table with \d+ chips\.|You leave the table when this hand ends\.",
                        page.inner_text("#log li[data-note=left]"))


def test_a_timeout_is_told_in_words_and_the_clock_shows_the_action_time(page: Any, served: Served) -> None:
    """A silent player reads "Tim ran out of time and folds" (or checks), then why they sit out; the
    clock never shows more than the action time, also while the pause after a hand runs."""
    table_id = create_table(served.url, variant="NT", **FAST, bots={"1": "calling-station"},
                            bot_buy_in=100, action_time=1, time_bank=0, max_misses=2)
    sit(page, served.url, table_id, "Tim", 100, 0)
    page.wait_for_selector("#log li[data-kind=action]:text-matches('^Tim ran out of time and (folds|checks)$')",
                           timeout=3 * WAIT)
    page.wait_for_selector("#log li[data-kind='sat out']:text('Tim ran out of time 2 times in a row and now sits out')",
                           timeout=3 * WAIT)
    page.wait_for_selector("#sit-in:not([hidden])")

    table_id = create_table(served.url, variant="NT", **{**FAST, "hand_pause": 1.5}, bots={"1": "calling-station"},
                            bot_buy_in=100, action_time=15)
    page.goto("about:blank")
    sit(page, served.url, table_id, "Clo", 100, 0)
    shown = []
    for _ in range(4):  # heads-up, Clo acts first every other hand, while the pause runs
        page.wait_for_selector("#question:not([hidden])")
        page.wait_for_function("document.querySelector('.seat.you .clock').textContent !== ''")
        text = page.inner_text(".seat.you .clock")
        shown.append(text)
        assert re.fullmatch(r"\d+ s", text) and int(text.split()[0]) <= 15, shown
        fold = page.locator("#action-buttons button[data-action=fold]")
        click_and_wait(page, "#action-buttons button[data-action=fold]" if fold.count()
                       else "#action-buttons button[data-action=check]")
    assert "15 s" in shown, shown


def test_a_restart_tells_the_player_the_hand_was_voided(page: Any, tmp_path: Path) -> None:
    """``cardgame serve`` killed mid-hand and started again: the page says it is reconnecting, that it
    reconnected, and that the hand was voided with every bet returned."""
    sock = socket.socket()
    sock.bind(("127.0.0.1", 0))
    port = sock.getsockname()[1]
    sock.close()
    url, db = f"http://127.0.0.1:{port}", tmp_path / "restart.db"
    proc = serve(port, db)
    try:
        table_id = create_table(url, variant="NT", **FAST, bots={"1": "calling-station"}, bot_buy_in=100)
        sit(page, url, table_id, "Vic", 100, 0)
        page.wait_for_selector("#question:not([hidden])")
        hand = page.evaluate("state.view.table.hand")
        proc.kill()  # SIGKILL mid-hand
        proc.wait(10)
        page.wait_for_function("document.getElementById('status').dataset.state === 'offline'")
        assert page.inner_text("#status") == "Reconnecting…"
        proc = serve(port, db)
        page.wait_for_selector("#log li[data-note=reconnected]", timeout=3 * WAIT)
        text = f"Hand #{hand} was voided when the server restarted; every bet was returned."
        page.wait_for_selector("#log li.notice[data-notice=voided]")
        assert page.inner_text("#log li.notice[data-notice=voided]") == text
        assert page.inner_text("#notice") == text
        page.wait_for_selector('.seat.you[data-seat="0"]')
        words_only(page)
    finally:
        proc.kill()
        proc.wait(10)


def serve(port: int, db: Path) -> subprocess.Popen[str]:
    """``cardgame serve`` on ``port`` recording to ``db``, once it answers."""
    env = {**os.environ, "PYTHONPATH": str(Path(__file__).resolve().parents[2])}
    proc = subprocess.Popen([sys.executable, "-m", "cardgame", "serve", "--port", str(port), "--db", str(db)],
                            stdout=subprocess.PIPE, stderr=subprocess.STDOUT, env=env, text=True)
    deadline = time.monotonic() + 30
    while time.monotonic() < deadline:
        try:
            with urllib.request.urlopen(f"http://127.0.0.1:{port}/api/tables", timeout=1):
                return proc
        except OSError:
            assert proc.poll() is None, f"cardgame serve exited: {proc.communicate()[0][-2000:]}"
            time.sleep(0.1)
    proc.kill()
    raise AssertionError("cardgame serve did not start")


def boxes(page: Any, selector: str) -> list[dict[str, float]]:
    """The bounding box of each visible element ``selector`` matches (page coordinates)."""
    found: list[dict[str, float]] = page.eval_on_selector_all(selector, """nodes => nodes
        .filter(n => n.offsetParent !== null)
        .map(n => { const r = n.getBoundingClientRect();
                    return {x: r.left + scrollX, y: r.top + scrollY, right: r.right + scrollX,
                            bottom: r.bottom + scrollY,
                            what: n.id || n.dataset.seat || n.dataset.action || n.dataset.preset
                                  || n.textContent}; })""")
    return found


def overlap(a: dict[str, float], b: dict[str, float]) -> bool:
    return (min(a["right"], b["right"]) - max(a["x"], b["x"]) > 0.5
            and min(a["bottom"], b["bottom"]) - max(a["y"], b["y"]) > 0.5)


def clashes(found: list[dict[str, float]]) -> list[tuple[Any, Any]]:
    """Each pair of ``found`` whose boxes overlap."""
    return [(a["what"], b["what"]) for i, a in enumerate(found) for b in found[i + 1:] if overlap(a, b)]


@pytest.mark.parametrize(("width", "variant", "seats"), [(420, "NT", 6), (360, "NT", 6), (360, "NT", 10),
                                                         (360, "F7S", 8)])
def test_a_phone_screen_shows_every_seat_and_control_whole(page: Any, served: Served, width: int, variant: str,
                                                           seats: int) -> None:
    """At 420 and 360 pixels wide every seat (with its cards) and every control of a full table lies within
    the screen, none over another, and the page does not scroll sideways."""
    table_id = create_table(served.url, variant=variant, **{**FAST, "seats": seats},
                            bots={str(s): "calling-station" for s in range(1, seats)}, bot_buy_in=200)
    page.set_viewport_size({"width": width, "height": 800})
    sit(page, served.url, table_id, "Ann with a long name", 200, 0)
    for _ in range(30):  # the first hand may have been dealt before every bot sat in
        page.wait_for_selector("#question:not([hidden])")
        if page.locator(".seat .card").count() >= 2 * seats:
            break
        finish_hand(page)
    else:
        raise AssertionError("no hand dealt every seat in")
    assert page.evaluate("document.documentElement.scrollWidth") <= width
    placed = []
    for seat in range(seats):
        parts = boxes(page, f'.seat[data-seat="{seat}"], .seat[data-seat="{seat}"] .card')
        assert parts, f"seat {seat} is not shown"
        whole = {"x": min(b["x"] for b in parts), "y": min(b["y"] for b in parts),
                 "right": max(b["right"] for b in parts), "bottom": max(b["bottom"] for b in parts), "what": seat}
        assert whole["x"] >= 0 and whole["right"] <= width and whole["y"] >= 0, whole
        placed.append(whole)
    assert not clashes(placed), clashes(placed)
    controls = boxes(page, "#question button, #question input, #controls button, #controls input")
    assert len(controls) >= 6, controls  # fold, call, raise or complete; sit out, top up and its box, leave
    for box in controls:
        assert box["x"] >= 0 and box["right"] <= width and box["right"] - box["x"] >= 20, box
    assert not clashes(controls), clashes(controls)


def test_notices_show_as_plain_text_once_and_odd_ones_are_ignored(page: Any, served: Served) -> None:
    """A notice's words are text, never markup; one told again (on reconnecting) is shown once; a
    notice without words, or with words that are not text, shows nothing (and no "null")."""
    table_id = create_table(served.url, variant="NT", **FAST, bots={"1": "calling-station"})
    page.clock.install()
    page.goto(f"{served.url}/table/{table_id}")
    page.wait_for_selector("#sit-form:not([hidden])")
    odd = ["null", "undefined", "5", "{}", "['a']", "''", "true"]
    for text in odd:
        page.evaluate(f"handle({{type: 'notice', kind: 'odd', text: {text}, seq: 1}})")
    page.evaluate("handle({type: 'notice', text: 'no kind', seq: 1})")
    markup = "handle({type: 'notice', kind: 'paused', text: '<b>Paused</b> & <img src=x onerror=alert(1)>', seq: 2})"
    page.evaluate(markup)
    page.evaluate(markup)  # told again: shown once
    page.evaluate("handle({type: 'notice', kind: 'resumed', text: 'x'.repeat(100000), seq: 3})")
    items = page.eval_on_selector_all("#log li.notice",
                                      "ns => ns.map(n => [n.dataset.notice, n.textContent.length])")
    assert items == [["", 7], ["paused", 44], ["resumed", 100_000]], items
    assert page.locator("#log b, #log img, #notice b, #notice img").count() == 0
    assert page.inner_text("#notice") == "x" * 100_000
    words_only(page)
    page.clock.run_for(16_000)
    assert page.locator("#notice").is_hidden()  # a notice's banner goes after a while
    page.evaluate("handle({type: 'notice', kind: 'paused', text: 'The table is paused.', seq: 4})")
    page.clock.run_for(120_000)
    assert page.inner_text("#notice") == "The table is paused."  # a pause stays told until it ends
    page.evaluate("handle({type: 'notice', kind: 'resumed', text: 'Play resumes.', seq: 4})")
    assert page.inner_text("#notice") == "Play resumes."
    page.clock.run_for(16_000)
    assert page.locator("#notice").is_hidden()


def test_the_lobby_fits_a_phone(page: Any, served: Served) -> None:
    """At 360 pixels the lobby does not scroll sideways: the list of tables scrolls inside its panel."""
    create_table(served.url, variant="NT", **FAST, bots={"1": "calling-station"}, name="a table with a long name")
    page.set_viewport_size({"width": 360, "height": 800})
    page.goto(served.url)
    page.wait_for_selector("#tables tbody tr")
    page.wait_for_selector("#params [data-param]")
    assert page.evaluate("document.documentElement.scrollWidth") <= 360
    for box in boxes(page, "button, input, select"):
        assert box["x"] >= 0 and box["right"] <= 360, box


@contextlib.contextmanager
def event_server(folder: Path, spec: Any) -> Iterator[tuple[str, Any]]:
    """A server holding the event ``spec`` under uvicorn in a thread: its address and its app."""
    app = create_app(str(folder / "e.db"), events=[spec])
    with served_in_thread(app) as port:
        yield f"http://127.0.0.1:{port}", app


def test_a_sit_and_go_played_to_its_end_in_the_browser_shows_the_winner_and_payouts(page: Any) -> None:
    """A person registers in the lobby, the other seats go to bots, the person plays by clicking (call or
    check, then all in from their fifth decision) until the event ends; the standings page shows the winner and the
    payouts (a screenshot of it kept in ``$CARDGAME_SCREENSHOT_DIR`` if set). Chips are checked at every
    hand by the event (``chip_errors``)."""
    import tempfile

    from cardgame.server.events import read_event

    spec = read_event({"name": "Browser SNG", "seats": 3, "stack": 100, "structure": "turbo sng hands",
                       "payouts": [70, 30], "people": 1, "bots": ["calling-station"], "bot_delay": 0,
                       "hand_pause": 0.3, "action_time": 20})
    with tempfile.TemporaryDirectory() as folder, event_server(Path(folder), spec) as (url, app):
        page.goto(url + "/")
        page.wait_for_selector("#events tr[data-status=registering]")
        assert page.inner_text("#events tr[data-event] td.registered") == "0/3"
        page.fill("#event-name", "Ann")
        page.click("button[data-register]")
        page.click("button[data-play]")  # the event starts at once (people: 1): the seats left go to bots
        page.wait_for_selector(".seat.you")
        page.wait_for_selector("#event-clock:not([hidden])")
        assert "level 1: 10/20" in page.inner_text("#event-clock")
        finished = "document.getElementById('event-clock').textContent.includes('finished')"
        clicks = 0
        while True:
            page.wait_for_function(f"!document.getElementById('question').hidden || {finished}")
            if page.evaluate(finished):
                break
            before = seq(page)
            if clicks >= 4 and page.locator("#presets button[data-preset=all_in]").count():  # a few hands first
                page.click("#presets button[data-preset=all_in]")
                page.click("#raise-button")
            else:
                button = page.locator("#action-buttons button[data-action=call], "
                                      "#action-buttons button[data-action=check]")
                button.first.click()
            clicks += 1
            page.wait_for_function(f"Number(document.body.dataset.seq) > {before} || {finished}")
        assert clicks >= 1
        event_id = app.state.events.listing()[0]["id"]
        page.goto(f"{url}/event/{event_id}")
        page.wait_for_selector("#winner:not([hidden])")
        standings = app.state.events.standings(event_id)
        winner = standings["winner"]
        assert page.inner_text("#winner") == f"Winner: {winner}"
        assert page.eval_on_selector_all("#payouts tbody td", "tds => tds.map(t => t.textContent)") == [
            "1", "70", "2", "30"]
        rows = page.eval_on_selector_all(
            "#standings tbody tr", "rs => rs.map(r => [r.dataset.player, r.querySelector('.place').textContent, "
                                   "r.querySelector('.prize').textContent])")
        assert rows[0] == [winner, "1", "70"] and sorted(r[1] for r in rows)[1:] in (["2", "3"], ["2-3", "2-3"])
        assert {r[0] for r in rows} >= {"Ann"} and sum(int(r[2]) for r in rows) == 100
        assert app.state.events.events[event_id].chip_errors == 0
        shots = os.environ.get("CARDGAME_SCREENSHOT_DIR")
        if shots:
            Path(shots).mkdir(parents=True, exist_ok=True)
            page.screenshot(path=str(Path(shots) / "sit-and-go-standings.png"), full_page=True)


def test_a_player_moved_to_another_table_of_an_event_is_followed_there_by_their_page(
        page: Any, monkeypatch: pytest.MonkeyPatch) -> None:
    """A multi-table event: the person (who lets their clock run out) draws a seat at table 2; when it
    breaks, their page moves to table 1 and plays their seat there with the same token."""
    import tempfile

    import cardgame.server.events as hosting
    from cardgame.server.events import read_event
    from cardgame.tournament.seating import SeatingRules, draw_seats

    names = ["Ann", *(f"random {i}" for i in range(1, 6))]
    rules = SeatingRules(table_size=3, final_table_size=3)
    seed = next(s for s in range(1000) if "Ann" in draw_seats(names, rules, seed=s)[1].seats)
    monkeypatch.setattr(hosting.secrets, "randbits", lambda bits: seed)
    spec = read_event({"name": "Two tables", "seats": 6, "table_size": 3, "stack": 300, "structure": "turbo sng hands",
                       "payouts": [100], "people": 1, "bots": ["random"], "bot_delay": 0.25, "hand_pause": 0,
                       "action_time": 0.5, "time_bank": 0})
    with tempfile.TemporaryDirectory() as folder, event_server(Path(folder), spec) as (url, app):
        visited: list[str] = []
        page.on("framenavigated", lambda frame: visited.append(frame.url))
        page.goto(url + "/")
        page.fill("#event-name", "Ann")
        page.click("button[data-register]")
        page.click("button[data-play]")
        page.wait_for_selector(".seat.you")
        event_id = app.state.events.listing()[0]["id"]
        hosted = app.state.events.events[event_id]
        deadline = time.monotonic() + 40
        while not hosted.broken:
            assert time.monotonic() < deadline, "table 2 did not break"
            time.sleep(0.1)
        final, broken = hosted.tables[1], hosted.broken[0]
        page.wait_for_url(f"{url}/table/{final}")  # table 2 broke: the page followed Ann to table 1
        page.wait_for_selector(".seat.you")
        assert f"{url}/table/{broken}" in visited  # she played at table 2 first
        standing = next(p for p in app.state.events.standings(event_id)["players"] if p["name"] == "Ann")
        assert standing["table"] == 1 and page.locator(f'.seat.you[data-seat="{standing["seat"]}"]').count()
