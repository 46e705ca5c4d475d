"""The templates keep the app's layers (docs/development/architecture.md, "The templates"): a package's
template includes or extends its own package's templates, those of a package in a lower layer
(``pyproject.toml``'s layers contract), the shared parts of ``templates/tournament/parts/``
and the site's frame (``tournament/base.html``): never a template of a package above it or
beside it, which would tie a lower feature to a higher one as an upward import would."""

from __future__ import annotations

import re
import tomllib
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]
TEMPLATES = ROOT / "templates" / "tournament"
USED = re.compile(r"""\{%\s*(?:include|extends)\s+["']tournament/([\w-]+)/""")


def layer_of() -> dict[str, int]:
    """Each package's layer, 0 the top."""
    contracts = tomllib.loads((ROOT / "pyproject.toml").read_text())["tool"]["importlinter"]
    layers = next(c for c in contracts["contracts"] if c["type"] == "layers")["layers"]
    return {package.strip(): depth for depth, layer in enumerate(layers)
            for package in re.split(r"[|:]", layer)}


def crossings() -> list[str]:
    layers = layer_of()
    found = []
    for path in sorted(TEMPLATES.glob("*/**/*.html")):
        package = path.relative_to(TEMPLATES).parts[0]
        if package == "parts":
            continue
        for used in USED.findall(path.read_text(encoding="utf-8")):
            if used in (package, "parts"):
                continue
            if used not in layers or layers[used] <= layers[package]:
                found.append(f"{path.relative_to(TEMPLATES)} uses tournament/{used}/")
    return found


def test_no_template_uses_one_of_a_package_above_or_beside_it():
    assert crossings() == []


def test_the_parts_are_documented_and_every_package_is_in_a_layer():
    layers = layer_of()
    packages = {path.name for path in TEMPLATES.iterdir() if path.is_dir()} - {"parts"}
    assert packages <= layers.keys()
    documented = (ROOT / "docs" / "development" / "architecture.md").read_text(encoding="utf-8")
    for part in sorted((TEMPLATES / "parts").glob("*.html")):
        assert f"`{part.name}`" in documented, part.name
