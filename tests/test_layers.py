"""The layout is the architecture: every module sits in one layer and imports only from its own
layer or below (the applications may use one another); the kernel imports nothing of poker; and
``docs/architecture.md``'s generated parts (the layers, every stage's machine) are current."""

from __future__ import annotations

from scripts import architecture
from scripts.architecture import LAYERS, imports, package_of, upward

INDEX = {pkg: i for i, (_, pkgs, _) in enumerate(LAYERS) for pkg in pkgs}


def test_every_module_is_in_a_layer() -> None:
    outside = sorted(m for m in imports() if m != "cardgame" and package_of(m) not in INDEX)
    assert not outside, f"modules in no layer (add a folder to LAYERS in scripts/architecture.py): {outside}"


def test_each_layer_imports_only_downwards() -> None:
    wrong = upward(imports())
    assert not wrong, "\n".join(wrong)


def test_an_upward_import_is_reported() -> None:
    found = imports()
    found["cardgame.model.hand"] = {*found["cardgame.model.hand"], "cardgame.stages.betting_round"}
    assert upward(found) == ["cardgame.model.hand (poker model) imports cardgame.stages.betting_round (stages)"]


def test_the_kernel_knows_no_poker() -> None:
    for module, targets in imports().items():
        if package_of(module) == "engine":
            assert all(package_of(t) == "engine" for t in targets), (module, targets)


def test_the_architecture_document_is_current() -> None:
    assert architecture.main(["--check"]) == 0, "run: python scripts/architecture.py"


def test_importing_the_kernel_loads_no_poker() -> None:
    """``cardgame``'s front door imports its names when first used, so the kernel alone loads alone."""
    import subprocess
    import sys

    code = "import sys, cardgame.engine; print(sorted(m for m in sys.modules if m.startswith('cardgame')))"
    loaded = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True).stdout
    assert "cardgame.model" not in loaded and "cardgame.stages" not in loaded, loaded
    assert "cardgame.engine.dispatcher" in loaded


def test_variants_sit_between_play_and_the_applications() -> None:
    """``variants/`` is a layer too: a variant importing an application (as the PHH stage lists once
    did, making ``cardgame.phh`` and ``variants`` import each other) is reported."""
    found = imports()
    assert "variants.holdem" in found and package_of("variants.holdem") == "variants"
    found["variants.stud"] = {*found["variants.stud"], "cardgame.phh.history"}
    assert upward(found) == ["variants.stud (variants) imports cardgame.phh.history (applications)"]
    found = imports()
    found["cardgame.stages.deal_hole"] = {*found["cardgame.stages.deal_hole"], "variants.registry"}
    assert upward(found) == ["cardgame.stages.deal_hole (stages) imports variants.registry (variants)"]
