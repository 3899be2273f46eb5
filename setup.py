"""The optional native core (engine/native, C++17): built by `pip install` when a C++ compiler and the
Python headers are there; without them spawnpit installs and runs on its Python engine alone."""

from glob import glob

from setuptools import Extension, setup

setup(ext_modules=[Extension(
    "spawnpit.engine._native",
    sources=sorted(glob("engine/native/*.cpp")),
    depends=sorted(glob("engine/native/*.h")),
    language="c++",
    extra_compile_args=["-std=c++17", "-O3", "-fvisibility=hidden"],
    optional=True,
)])
