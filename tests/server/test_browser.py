"""The table server's pages in a real browser: headless Chromium (Debian's ``chromium``, driven by
Playwright) opens the lobby and a table, sits down, plays by clicking, and the test checks what the
page shows. A screenshot of the table is kept in ``$CARDGAME_ARTIFACTS`` (default: the test's
temporary directory). Skipped when Playwright or Chromium is missing."""

from __future__ import annotations

import json
import os
import re
import shutil
import socket
import threading
import time
import urllib.request
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

sync_api = pytest.importorskip("playwright.sync_api", reason="the playwright package is not installed")
uvicorn = pytest.importorskip("uvicorn", reason="uvicorn is not installed (extra cardgame[server])")

from cardgame.server.app import create_app  # noqa: E402
from cardgame.server.config import Limits  # noqa: E402

CHROMIUM = shutil.which("chromium") or shutil.which("chromium-browser")
pytestmark = pytest.mark.skipif(CHROMIUM is None, reason="Chromium is not installed (Debian: apt-get install chromium)")

ARGS = ["--no-sandbox", "--disable-gpu", "--disable-quic", "--no-first-run", "--disable-background-networking",
        "--disable-component-update", "--disable-sync"]
RED, BLACK = "rgb(200, 16, 46)", "rgb(17, 17, 17)"  # table.css: hearts and diamonds, clubs and spades
WAIT = 15_000  # milliseconds: generous, the machine is shared


@pytest.fixture(scope="module")
def base_url() -> Iterator[str]:
    """The app under uvicorn in a thread, on a free loopback port (no store: tables live in memory)."""
    sock = socket.socket()
    sock.bind(("127.0.0.1", 0))
    port = sock.getsockname()[1]
    server = uvicorn.Server(uvicorn.Config(create_app(None, limits=Limits(tables_per_client=100)), log_level="warning"))
    thread = threading.Thread(target=server.run, kwargs={"sockets": [sock]}, daemon=True)
    thread.start()
    deadline = time.monotonic() + 20
    while not server.started:
        assert thread.is_alive() and time.monotonic() < deadline, "the server did not start"
        time.sleep(0.02)
    yield f"http://127.0.0.1:{port}"
    server.should_exit = True
    thread.join(10)
    sock.close()


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

    # a dropped connection reconnects by itself and resumes the seat
    page.evaluate("state.ws.close()")
    page.wait_for_function("document.getElementById('status').dataset.state === 'offline'")
    page.wait_for_function("document.getElementById('status').dataset.state === 'connected'")
    page.wait_for_selector('.seat.you[data-seat="0"]')

    # a view that skips events is not shown: the page notes the gap and reconnects to resynchronise
    page.evaluate("""handle({...state.view, full: false, seq: state.seq + 3,
                             events: [{seq: state.seq + 2, kind: "action", text: "forged line"}]})""")
    page.wait_for_selector("#log li.note")
    assert "Missed events" in page.inner_text("#log li.note")
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


def test_a_draw_shows_the_cards_as_toggles(page: Any, base_url: str) -> None:
    table_id = create_table(base_url, variant="F2L3D", seats=2, bots={"1": "calling-station"}, bot_buy_in=100,
                            seed=5)
    sit(page, base_url, table_id, "Dee", 100, 0)
    for _ in range(10):
        if wait_for_question_or(page, "#draw:not([hidden])"):
            break
        check_or_call(page)
    toggles = page.locator("#draw-cards button[data-card]")
    assert toggles.count() == 5
    submit = page.locator("#draw-submit")
    assert submit.inner_text() == "Stand pat" and submit.is_enabled()
    picked = [toggles.nth(i).get_attribute("data-card") for i in (0, 3)]
    toggles.nth(0).click()
    toggles.nth(3).click()
    assert toggles.nth(0).get_attribute("aria-pressed") == "true"
    assert submit.inner_text() == "Discard 2"
    before = seq(page)
    submit.click()
    page.wait_for_function(f"Number(document.body.dataset.seq) > {before}")
    page.wait_for_selector('#log li[data-kind="discarded"]')
    assert any(text.startswith("Dee discards 2")
               for text in page.eval_on_selector_all("#log li", "items => items.map(i => i.textContent)"))
    now = [c["card"] for c in seat_cards(page, 0)]
    assert len(now) == 5 and not set(picked) & set(now)


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


def test_seat_controls(page: Any, base_url: str) -> None:
    table_id = create_table(base_url, variant="NT", seats=2, bots={"1": "calling-station"}, bot_buy_in=100, seed=3)
    sit(page, base_url, table_id, "Cal", 100, 0)
    page.wait_for_selector("#question:not([hidden])")
    page.click("#sit-out")
    page.wait_for_selector("#sit-in:not([hidden])")
    assert page.locator("#sit-out").is_hidden()
    assert "sitting out" in page.inner_text('.seat.you[data-seat="0"]')

    page.fill("#top-up-amount", "10")  # in a hand: refused, and the page says why
    page.click("#top-up")
    page.wait_for_selector("#error:not([hidden])")
    assert page.inner_text("#error").strip()

    page.click("#sit-in")
    page.wait_for_selector("#sit-out:not([hidden])")
    page.click("#leave")
    assert page.inner_text("#leave") == "Click again to leave"  # one stray click does not cash out
    page.click("#leave")
    page.wait_for_selector("#sit-form:not([hidden])")
    assert page.evaluate(f"localStorage.getItem('cardgame.token.{table_id}')") is None
    assert re.fullmatch(r"You left the table with \d+ chips\.|You leave the table when this hand ends\.",
                        page.inner_text("#log li.note"))


def test_run_it_twice_asks_the_player(page: Any, base_url: str) -> None:
    table_id = create_table(base_url, variant="NT", params={"run_it_twice": True}, seats=2, bots={"1": "all-in"},
                            bot_buy_in=100, seed=4)
    sit(page, base_url, table_id, "Rut", 100, 0)
    for _ in range(5):
        if wait_for_question_or(page, "#runs:not([hidden])"):
            break
        check_or_call(page)  # the bot is all in: calling puts us all in too
    buttons = page.locator("#runs-buttons button[data-runs]")
    assert [buttons.nth(i).get_attribute("data-runs") for i in range(buttons.count())] == ["1", "2"]
    assert page.locator("#runs-buttons button[data-action=muck]").count() == 1
    before = seq(page)
    page.click('#runs-buttons button[data-runs="2"]')
    page.wait_for_function(f"Number(document.body.dataset.seq) > {before}")
    page.wait_for_selector('#log li[data-kind="runs chosen"]')
