"""Builds the optional compiled move core (pdn_tools/rules/_*.c) and scanner and movetext writers (pdn_tools/text/_scan.c, _runs.c, _fast.c, _wrap.c, _lines.c); the metadata is in pyproject.toml.

The extension is optional: without a C compiler or Python headers the build warns and the
package installs with the pure-Python engine, which gives the same answers, only slower.
"""

from __future__ import annotations

import sys

from setuptools import Extension, setup
from setuptools.command.build_ext import build_ext

PURE_WARNING = "WARNING: pdn-tools: the compiled {} could not be built ({}); {} (same results, slower)"
# What each extension is, and what stands in for it when it cannot be built.
PARTS = {"pdn_tools.rules._core": ("move core", "the pure-Python engine is used"),
         "pdn_tools.text._scan": ("scanner", "text is read by the Python scanner")}


class OptionalBuildExt(build_ext):
    """build_ext that warns instead of failing when the extension cannot be compiled."""

    def run(self) -> None:
        try:
            super().run()
        except Exception as error:  # no compiler, no headers: any build failure
            print(PURE_WARNING.format("core", error, "the pure-Python engine is used"), file=sys.stderr)

    def build_extension(self, ext: Extension) -> None:
        try:
            super().build_extension(ext)
        except Exception as error:
            part, instead = PARTS[ext.name]
            print(PURE_WARNING.format(part, error, instead), file=sys.stderr)


setup(
    ext_modules=[
        Extension("pdn_tools.rules._core",
                  [f"pdn_tools/rules/_{name}.c" for name in
                   ("rules", "captures", "movegen", "steps", "positions", "draws", "replay", "written", "found", "search",
                    "annotated")],
                  depends=["pdn_tools/rules/_core.h", "pdn_tools/rules/_replay.h", "pdn_tools/text/_scan.h",
                           "pdn_tools/text/_lines.h"],
                  optional=True, extra_compile_args=["-O3"]),
        Extension("pdn_tools.text._scan", [f"pdn_tools/text/_{name}.c" for name in ("scan", "runs", "fast", "wrap", "lines")],
                  depends=["pdn_tools/text/_scan.h", "pdn_tools/text/_lines.h"],
                  optional=True, extra_compile_args=["-O3"]),
    ],
    cmdclass={"build_ext": OptionalBuildExt},
)
