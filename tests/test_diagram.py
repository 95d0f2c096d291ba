"""``cardgame diagram`` and :mod:`cardgame.engine.diagram`: golden files, the flow the dispatcher
really runs, images through graphviz, errors, and docs/diagrams.md kept current.

The golden files in ``tests/data/diagrams/`` are compared exactly. After a deliberate change to the
drawing (or to a machine), look at the new output and regenerate them with::

    PYTHONPATH=. python -m tests.test_diagram
"""

from __future__ import annotations

import io
import os
import shutil
import subprocess
import sys
import xml.etree.ElementTree as ET
from collections.abc import Callable
from pathlib import Path
from typing import Any, ClassVar

import pytest

import variants
from cardgame.cli import main
from cardgame.cli.diagram import FORMATS, draw
from cardgame.engine import Push, Restart, Stage
from cardgame.engine.diagram import endings, flow, machine_classes, machine_dot, machine_mermaid, stage_list_mermaid
from cardgame.model.errors import CardgameError
from cardgame.stages import BettingRound, DealBoard, Draw, EndHand, RunItTwice, Showdown, WaitForPlayers
from scripts import diagrams
from tests.conftest import DATA, REPO

GOLDEN = DATA / "diagrams"
DOT = shutil.which("dot")
needs_dot = pytest.mark.skipif(DOT is None, reason="graphviz's dot is not installed")


def _run_it_twice() -> bytes:
    return (stage_list_mermaid(variants.get("NT").build(run_it_twice=True)) + "\n").encode()


#: golden file -> what it holds
GOLDENS: dict[str, Callable[[], bytes]] = {
    "NT.md": lambda: draw("NT", "mermaid"),
    "NT.dot": lambda: draw("NT", "dot"),
    "F2L3D-draw.md": lambda: draw("F2L3D", "mermaid", "draw"),
    "F2L3D-draw.dot": lambda: draw("F2L3D", "dot", "draw"),
    "NT-run-it-twice-stages.mmd": _run_it_twice,
}


@pytest.mark.parametrize("name", sorted(GOLDENS))
def test_output_matches_the_golden_file(name: str) -> None:
    assert GOLDENS[name]() == (GOLDEN / name).read_bytes(), "regenerate: PYTHONPATH=. python -m tests.test_diagram"


def test_the_diagrams_document_is_current() -> None:
    assert diagrams.main(["--check"]) == 0, "run: python scripts/diagrams.py"
    text = (REPO / "docs" / "diagrams.md").read_text(encoding="utf-8")
    for code in ("NT", "F7S", "F2L3D"):
        printed = ("\n" + draw(code).decode()).replace("\n## ", "\n### ")  # what the command prints, a level down
        assert printed in text


# --- what is drawn ----------------------------------------------------------------------------------
def test_holdem_flow_is_the_dispatchers() -> None:
    stages = variants.get("NT").build()
    drawn = flow(stages)
    edges = {(e.source, e.dest, e.kind, e.label) for e in drawn.edges}
    last = f"s{len(stages) - 1}"
    showdown = next(f"s{i}" for i, s in enumerate(stages) if isinstance(s, Showdown))
    assert [label for _, label in drawn.nodes][: len(stages)] == [
        "wait for players", "forced bets", "deal hole cards", "preflop betting", "deal the flop", "flop betting",
        "deal the turn", "turn betting", "deal the river", "river betting", "showdown", "end of hand"]
    assert ("s0", "s1", "done", "HandOpened") in edges
    assert ("s2", "s3", "done", "ForcedBetsResult") in edges  # dealing passes on what it was given
    assert (last, "s0", "restart", "restart") in edges  # EndHand's hand_closed ends with restarted
    assert {(e.source, e.dest) for e in drawn.edges if e.kind == "exit"} == {("s0", "stop"), (last, "stop")}
    gotos = {e.source for e in drawn.edges if e.kind == "goto" and e.dest == showdown}
    assert gotos == {f"s{i}" for i, s in enumerate(stages) if isinstance(s, BettingRound)}
    assert not any(e.kind in ("push", "result") for e in drawn.edges)
    assert not any(e.source == last and e.kind == "done" for e in drawn.edges)  # EndHand gives nothing


def test_each_class_is_one_machine() -> None:
    stages = variants.get("F2L3D").build()
    classes = machine_classes(stages)
    assert len(classes) == len(set(classes)) == len({type(s) for s in stages})
    assert classes.count(BettingRound) == 1 and classes.count(Draw) == 1
    assert draw("F2L3D").decode().count("```mermaid") == 1 + len(classes)  # the stage list, then each machine


def test_a_pushed_sub_stage_is_drawn_with_its_result_coming_back() -> None:
    assert endings(RunItTwice).pushes == (DealBoard,)
    assert endings(EndHand).restart and endings(EndHand).exit and endings(WaitForPlayers).exit
    assert endings(BettingRound) == endings(DealBoard) == type(endings(DealBoard))()
    drawn = flow(variants.get("NT").build(run_it_twice=True))
    pushes = [e for e in drawn.edges if e.kind == "push"]
    assert len(pushes) == 3  # one run-it-twice offer before each street
    labels = dict(drawn.nodes)
    for e in pushes:
        assert labels[e.dest] == "deal board"
        assert any(b.kind == "result" and (b.source, b.dest) == (e.dest, e.source) for b in drawn.edges)


class _Sub(Stage[Any]):
    name = "sub"


class _Pushing(Stage[Any]):
    """A stage of no game, whose handler returns the outcomes itself (no machine callback)."""

    name = "pushing"
    states: ClassVar[list[str]] = ["ready", "waiting for it", "done"]
    transitions: ClassVar[list[dict[str, Any]]] = [
        {"trigger": "begin", "source": "ready", "dest": "waiting for it"},
        {"trigger": "back", "source": "waiting for it", "dest": "done", "unless": "tired"},
    ]
    events = ("go",)

    def tired(self) -> bool:
        return False

    def on_go(self) -> Push:
        return Push(_Sub(), None)

    def on_substage_result(self, result: Any) -> Restart:
        return Restart()


def test_outcomes_returned_by_handlers_are_read_from_the_code() -> None:
    assert endings(_Pushing) == type(endings(_Pushing))(restart=True, exit=False, pushes=(_Sub,))
    drawn = flow([_Pushing()])
    assert {(e.source, e.dest, e.kind) for e in drawn.edges} == {
        ("s0", "s0p0", "push"), ("s0p0", "s0", "result"), ("s0", "s0", "restart")}
    assert machine_classes([_Pushing()]) == [_Pushing, _Sub]


def test_state_names_mermaid_cannot_take_are_declared() -> None:
    assert machine_mermaid(_Pushing).splitlines() == [
        "stateDiagram-v2",
        '    state "waiting for it" as state1',
        "    [*] --> ready",
        "    ready --> state1: begin",
        "    state1 --> done: back [not tired]",
    ]
    assert '"waiting for it" -> "done" [label="back [not tired]\\l"];' in machine_dot(_Pushing)


# --- images -------------------------------------------------------------------------------------------
@needs_dot
def test_svg_is_drawn_by_graphviz() -> None:
    svg = draw("F7S", "svg")
    root = ET.fromstring(svg)
    assert root.tag == "{http://www.w3.org/2000/svg}svg"
    text = "".join(root.itertext())
    assert "seven-card stud (F7S)" in text and "bring-in (BringIn)" in text


@needs_dot
def test_png_is_written_to_a_file(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    out = tmp_path / "nt.png"
    assert main(["diagram", "NT", "--stage", "betting round", "--format", "png", "--output", str(out)]) == 0
    assert out.read_bytes().startswith(b"\x89PNG\r\n\x1a\n")
    assert capsys.readouterr().out == ""


@needs_dot
def test_png_goes_to_a_pipe() -> None:
    env = {**os.environ, "PYTHONPATH": str(REPO)}
    done = subprocess.run([sys.executable, "-m", "cardgame", "diagram", "FB", "--format", "png"],
                          capture_output=True, env=env, check=False, timeout=60)
    assert done.returncode == 0, done.stderr
    assert done.stdout.startswith(b"\x89PNG\r\n\x1a\n")


class _Terminal(io.StringIO):
    def isatty(self) -> bool:
        return True


def test_png_is_not_written_to_a_terminal(monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]) -> None:
    terminal = _Terminal()
    monkeypatch.setattr(sys, "stdout", terminal)
    assert main(["diagram", "NT", "--format", "png"]) == 2
    assert "png is binary: give --output FILE" in capsys.readouterr().err
    assert terminal.getvalue() == ""


@pytest.mark.parametrize("fmt", ["svg", "png"])
def test_a_missing_graphviz_is_named(fmt: str, monkeypatch: pytest.MonkeyPatch, tmp_path: Path,
                                     capsys: pytest.CaptureFixture[str]) -> None:
    monkeypatch.setenv("PATH", str(tmp_path))  # a PATH with no dot on it
    out = tmp_path / f"x.{fmt}"
    assert main(["diagram", "NT", "--format", fmt, "--output", str(out)]) == 2
    err = capsys.readouterr().err
    assert f"--format {fmt} needs graphviz's dot program, which is not installed" in err
    assert "install graphviz" in err and "--format mermaid" in err
    assert not out.exists()
    assert draw("NT", "dot").startswith(b"digraph")  # the text formats need nothing


# --- every variant, and the errors ----------------------------------------------------------------------
def test_every_variant_draws_in_mermaid_and_dot() -> None:
    graphs = []
    for variant in variants.available():
        stages = variant.build()
        text = draw(variant.name, "mermaid").decode()
        assert text.count("```mermaid") == 1 + len(machine_classes(stages)), variant.name
        graph = draw(variant.name, "dot").decode()
        assert graph.startswith("digraph variant {") and graph.endswith("}\n"), variant.name
        graphs.append(graph)
        for cls in machine_classes(stages):
            assert draw(variant.name, "dot", cls.name).decode() == machine_dot(cls) + "\n"
    if DOT is not None:  # graphviz reads every graph (one run: it takes several graphs in a row)
        done = subprocess.run([DOT, "-Tcanon"], input="".join(graphs).encode(), capture_output=True,
                              check=False, timeout=60)
        assert done.returncode == 0 and not done.stderr, done.stderr
        assert done.stdout.count(b"digraph variant {") == len(graphs)


def test_a_stage_is_named_as_the_list_shows_it_or_by_its_class(capsys: pytest.CaptureFixture[str]) -> None:
    by_name = draw("F7S", "mermaid", "Bring-In")
    assert by_name == draw("F7S", "mermaid", "bringin") == draw("F7S", "mermaid", " bring-in ")
    assert by_name.decode() == f"```mermaid\n{machine_mermaid(variants.get('F7S').build()[3].__class__)}\n```\n"
    assert main(["diagram", "F7S", "--stage", "bring-in"]) == 0
    assert capsys.readouterr().out.encode() == by_name


def test_output_file_holds_what_stdout_shows(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    out = tmp_path / "nt.dot"
    assert main(["diagram", "nt", "--format", "dot", "--output", str(out)]) == 0
    assert capsys.readouterr().out == ""
    assert main(["diagram", "NT", "--format", "dot"]) == 0
    assert out.read_text() == capsys.readouterr().out


def test_a_bad_stage_lists_the_stages(capsys: pytest.CaptureFixture[str]) -> None:
    with pytest.raises(CardgameError, match=r"2-7 triple draw has no stage called 'bring-in'; its stages are "
                                            r"'wait for players', 'forced bets', .*'draw', 'showdown'"):
        draw("F2L3D", "mermaid", "bring-in")
    assert main(["diagram", "NT", "--stage", "fourth street"]) == 2
    err = capsys.readouterr().err
    assert err.startswith("cardgame: error: no-limit hold'em has no stage called 'fourth street'")
    assert "'deal board'" in err and "by street, 'preflop betting', 'deal the flop', 'flop betting'" in err


def test_the_stages_speak_a_dealers_language() -> None:
    """Stud's five deals are its streets, draw's rounds are the first to third draw (issue 32)."""
    labels = [s.label for s in variants.get("F7S").build()]
    assert [x for x in labels if x.startswith("deal")] == [
        "deal third street", "deal fourth street", "deal fifth street", "deal sixth street", "deal seventh street"]
    labels = [s.label for s in variants.get("F2L3D").build()]
    assert labels[3:10] == ["predraw betting", "first draw", "betting after the first draw", "second draw",
                            "betting after the second draw", "third draw", "betting after the third draw"]
    assert [s.label for s in variants.get("five-card draw").build()][4:6] == ["draw", "betting after the draw"]


def test_a_street_draws_each_of_its_stages_machines(capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["diagram", "NT", "--stage", "flop"]) == 0
    text = capsys.readouterr().out
    assert [line for line in text.splitlines() if line.startswith("## ")] == [
        "## deal board (DealBoard)", "## betting round (BettingRound)"]
    assert f"```mermaid\n{machine_mermaid(DealBoard)}\n```" in text
    assert draw("F7S", "mermaid", "Third  Street") == draw("F7S", "mermaid", "third street")
    dot = draw("F2L3D", "dot", "second draw").decode()
    assert 'label="2-7 triple draw (F2L3D): second draw"' in dot and dot.count("subgraph") == 2
    assert draw("NT", "mermaid", "betting round") == f"```mermaid\n{machine_mermaid(BettingRound)}\n```\n".encode()


def test_steps_between_two_states_share_one_labelled_arrow() -> None:
    """mermaid draws one label per pair of states: the betting machine's seven self-loops are one arrow
    whose label lists every step, so each reads (fold, check, call, bring_in, bet, raise)."""
    text = machine_mermaid(BettingRound)
    loops = [line for line in text.splitlines() if "waiting_for_action --> waiting_for_action" in line]
    assert len(loops) == 1
    assert [part.split(" ")[0] for part in loops[0].split(": ", 1)[1].split("<br/>")] == [
        "acted", "fold", "check", "call", "bring_in", "bet", "raise"]


@pytest.mark.skipif(DOT is None, reason="graphviz's dot is not installed")
def test_a_variants_image_is_sized_to_read(tmp_path: Path) -> None:
    """The machines are stacked under the stage list, not side by side (3,900 px wide before)."""
    import struct

    out = tmp_path / "nt.png"
    assert main(["diagram", "NT", "--format", "png", "--output", str(out)]) == 0
    width, height = struct.unpack(">II", out.read_bytes()[16:24])
    assert width < 2_000 < height, (width, height)


def test_a_bad_variant_lists_the_variants(capsys: pytest.CaptureFixture[str]) -> None:
    with pytest.raises(CardgameError, match=r"Unknown variant 'hold em'; give a PHH code or a name: .*NT or no-limit"):
        draw("hold em")
    assert main(["diagram", "XX"]) == 2
    err = capsys.readouterr().err
    assert "Unknown variant 'XX'" in err and "F7S or seven-card stud" in err


def test_a_bad_format_lists_the_formats(capsys: pytest.CaptureFixture[str]) -> None:
    with pytest.raises(CardgameError, match="Unknown diagram format 'jpeg'; the formats are mermaid, dot, svg, png"):
        draw("NT", "jpeg")
    with pytest.raises(SystemExit) as exit_:
        main(["diagram", "NT", "--format", "jpeg"])
    assert exit_.value.code == 2
    assert "invalid choice: 'jpeg' (choose from 'mermaid', 'dot', 'svg', 'png')" in capsys.readouterr().err
    assert FORMATS == ("mermaid", "dot", "svg", "png")


def test_a_bad_output_is_refused_before_drawing(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    with pytest.raises(SystemExit):
        main(["diagram", "NT", "--output", str(tmp_path / "missing" / "x.md")])
    assert "cannot write the file" in capsys.readouterr().err


def _regenerate() -> None:
    GOLDEN.mkdir(parents=True, exist_ok=True)
    for name, make in GOLDENS.items():
        (GOLDEN / name).write_bytes(make())
        print(f"wrote {GOLDEN / name}")


if __name__ == "__main__":
    _regenerate()


@pytest.mark.parametrize(("fmt", "name", "named"), [("png", "x.svg", "svg"), ("svg", "x.png", "png"),
                                                    ("mermaid", "x.dot", "dot"), ("dot", "x.md", "mermaid"),
                                                    ("png", "x.GV", "dot"), ("svg", "x.mmd", "mermaid")])
def test_an_output_named_for_another_format_is_refused(fmt: str, name: str, named: str, tmp_path: Path,
                                                       capsys: pytest.CaptureFixture[str]) -> None:
    out = tmp_path / name
    assert main(["diagram", "NT", "--format", fmt, "--output", str(out)]) == 2
    err = capsys.readouterr().err
    assert f"names a {named} file but --format is {fmt}: give --format {named}" in err and not out.exists()


def test_an_output_named_for_its_format_or_for_none_is_written(tmp_path: Path) -> None:
    for fmt, name in (("mermaid", "a.md"), ("mermaid", "a.mmd"), ("dot", "a.gv"), ("dot", "a.txt"),
                      ("mermaid", "diagram")):
        assert main(["diagram", "NT", "--format", fmt, "--output", str(tmp_path / name)]) == 0
        assert (tmp_path / name).read_bytes() == draw("NT", fmt)
