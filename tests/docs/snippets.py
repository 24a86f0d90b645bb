#!/usr/bin/env python3
"""The code snippets of README.md and docs/*.md, checked and built by the test suite.

Convention (docs/architecture.md, "Code in the docs"): every fenced block of C, C++, CUDA or CMake
has, on the line before its fence, one of
    <!-- snippet: PROJECT/FILE -->   the block is FILE of the small project PROJECT, which is built
    <!-- snippet: fragment ... -->   an excerpt, not built (the text after "fragment" may say why)
Shell commands, output and other blocks are not claimed to build and need no marker.

A project is every block marked with its name, in any doc, plus the files in
tests/docs/support/PROJECT/ (files a snippet names that the doc does not show). It is built as a
CMake project against an installed anygpu:
  - no CMakeLists.txt among its files: one is made: the executable `app` from main.c or main.cpp
    (else an empty main), linking anygpu::anygpu, and every other .c/.cpp/.cu file as its kernels
    (anygpu_add_kernels NAME <project>_kernels, "-" read as "_");
  - a CMakeLists.txt without project() (a made one too): `cmake_minimum_required` and
    `project(... C CXX ASM)` are put first, and `find_package(anygpu 0.1 REQUIRED)` when it has
    none (one with project() is taken as it is: it must be a whole top-level CMakeLists.txt);
  - a project with a main.c or main.cpp (a snippet or a support file) is a complete program: `app`
    runs on the CPU device (ANYGPU_BACKENDS=cpu) and must exit 0.

Usage:
  snippets.py check DOC...                     every marker well-formed, every C/C++/CUDA/CMake
                                               block marked, every project named once per file
  snippets.py list DOC...                      the project names, one a line
  snippets.py build --prefix P --work W --project NAME DOC... [-- CMAKE_ARGS...]
                                               write the project to W/NAME, configure it against
                                               the anygpu installed in P, build it, run it
"""
import os
import re
import shutil
import subprocess
import sys
import time

BUILT_LANGUAGES = {"c", "cpp", "c++", "cu", "cuda", "cmake"}
MARKER = re.compile(r"^<!--\s*snippet:\s*(.*?)\s*-->\s*$")
FENCE = re.compile(r"^(\s*)(```+|~~~+)\s*([\w+-]*)")
PROJECT_FILE = re.compile(r"^([a-z0-9][a-z0-9-]*)/([A-Za-z0-9_.][A-Za-z0-9_./-]*)$")
SUPPORT_DIR = os.path.join(os.path.dirname(os.path.abspath(__file__)), "support")
SOURCE_SUFFIXES = (".c", ".cpp", ".cu")


class Block:
    def __init__(self, doc, line, language, marker, text):
        self.doc, self.line, self.language, self.marker, self.text = doc, line, language, marker, text

    def where(self):
        return f"{self.doc}:{self.line}"


def read_blocks(doc):
    """Every fenced block of a Markdown file, with the snippet marker on the line before it."""
    blocks, lines = [], open(doc, encoding="utf-8").read().split("\n")
    i = 0
    while i < len(lines):
        fence = FENCE.match(lines[i])
        if not fence:
            i += 1
            continue
        indent, ticks, language = fence.group(1), fence.group(2), fence.group(3).lower()
        previous = lines[i - 1].strip() if i > 0 else ""
        marker = MARKER.match(previous)
        body, j = [], i + 1
        while j < len(lines) and not lines[j].strip().startswith(ticks):
            body.append(lines[j][len(indent):] if lines[j].startswith(indent) else lines[j])
            j += 1
        blocks.append(Block(doc, i + 1, language, marker.group(1) if marker else None,
                            "\n".join(body) + "\n"))
        i = j + 1
    return blocks


def check(docs):
    """Problems with the markers, as 'doc:line: what' lines; the projects, as name -> {file: block}."""
    problems, projects = [], {}
    for doc in docs:
        text = open(doc, encoding="utf-8").read().split("\n")
        fence_lines = {block.line - 1 for block in read_blocks(doc)}
        for number, line in enumerate(text, 1):
            if MARKER.match(line.strip()) and number not in fence_lines:
                problems.append(f"{doc}:{number}: a snippet marker not followed by a fenced block")
        for block in read_blocks(doc):
            if block.marker is None:
                if block.language in BUILT_LANGUAGES:
                    problems.append(f"{block.where()}: a ```{block.language} block without "
                                    "<!-- snippet: PROJECT/FILE --> or <!-- snippet: fragment -->")
                continue
            if block.marker == "fragment" or block.marker.startswith("fragment "):
                continue
            named = PROJECT_FILE.match(block.marker)
            if not named or ".." in block.marker.split("/"):
                problems.append(f"{block.where()}: '{block.marker}' is neither PROJECT/FILE "
                                "(lower-case project, relative file) nor 'fragment'")
                continue
            project, name = named.groups()
            files = projects.setdefault(project, {})
            if name in files:
                problems.append(f"{block.where()}: {project}/{name} is also {files[name].where()}")
            files[name] = block
    return problems, projects


def made_cmakelists(project, files):
    """The CMakeLists.txt of a project that shows none: `app` and its kernels."""
    mains = [name for name in files if name in ("main.c", "main.cpp")]
    kernels = sorted(name for name in files if name.endswith(SOURCE_SUFFIXES) and name not in mains)
    if not kernels:
        raise SystemExit(f"project {project}: no CMakeLists.txt and no kernel source")
    program = mains[0] if mains else "empty_main.c"
    if not mains:
        files["empty_main.c"] = "int main(void) { return 0; }\n"
    image = re.sub(r"[^A-Za-z0-9_]", "_", project) + "_kernels"
    return (f"add_executable(app {program})\n"
            "target_link_libraries(app PRIVATE anygpu::anygpu)\n"
            f"anygpu_add_kernels(TARGET app NAME {image} SOURCES {' '.join(kernels)})\n")


def completed_cmakelists(project, text):
    """A CMakeLists.txt snippet with what a top-level one needs put first."""
    preamble = ""
    if not re.search(r"^\s*project\s*\(", text, re.M):
        preamble += ("cmake_minimum_required(VERSION 3.25)\n"
                     f"project(snippet_{project.replace('-', '_')} LANGUAGES C CXX ASM)\n")
        if not re.search(r"find_package\s*\(\s*anygpu\b", text):
            preamble += "find_package(anygpu 0.1 REQUIRED)\n"
    return preamble + text


def write_project(project, blocks, directory):
    """Writes the project's files; returns whether it is a complete program to run."""
    files = {name: block.text for name, block in blocks.items()}
    support = os.path.join(SUPPORT_DIR, project)
    if os.path.isdir(support):
        for root, _, names in os.walk(support):
            for name in names:
                path = os.path.join(root, name)
                relative = os.path.relpath(path, support)
                if relative in files:
                    raise SystemExit(f"project {project}: {relative} is a snippet and in {support}")
                files[relative] = open(path, encoding="utf-8").read()
    runs = any(name in ("main.c", "main.cpp") for name in files)
    if "CMakeLists.txt" not in files:
        files["CMakeLists.txt"] = made_cmakelists(project, files)
    files["CMakeLists.txt"] = completed_cmakelists(project, files["CMakeLists.txt"])
    shutil.rmtree(directory, ignore_errors=True)
    for name, text in files.items():
        path = os.path.join(directory, name)
        os.makedirs(os.path.dirname(path), exist_ok=True)
        with open(path, "w", encoding="utf-8") as out:
            out.write(text)
    return runs


def step(what, command, log, **kwargs):
    print("+ " + " ".join(command), flush=True)
    started = time.monotonic()
    result = subprocess.run(command, stdout=subprocess.PIPE, stderr=subprocess.STDOUT, text=True,
                            **kwargs)
    with open(log, "w", encoding="utf-8") as out:
        out.write(result.stdout)
    if result.returncode != 0:
        print(result.stdout)
        raise SystemExit(f"FAIL: {what} (exit {result.returncode}; {log})")
    print(f"ok: {what} ({time.monotonic() - started:.1f} s)", flush=True)
    return result.stdout


def build(prefix, work, project, blocks, cmake_args):
    cmake = os.environ.get("CMAKE", "cmake")
    source = os.path.join(work, project)
    binary = os.path.join(work, project + "-build")
    runs = write_project(project, blocks, source)
    for name, block in sorted(blocks.items()):
        print(f"{project}/{name}: {block.where()}")
    shutil.rmtree(binary, ignore_errors=True)
    env = dict(os.environ, ANYGPU_BACKENDS="cpu")
    env.pop("LD_LIBRARY_PATH", None)
    step("configure", [cmake, "-S", source, "-B", binary, f"-DCMAKE_PREFIX_PATH={prefix}",
                       "-DCMAKE_FIND_USE_PACKAGE_REGISTRY=OFF", *cmake_args],
         binary + ".configure.log", env=env)
    jobs = os.environ.get("ANYGPU_DOCS_JOBS", "2")
    step("build", [cmake, "--build", binary, "-j", jobs], binary + ".build.log", env=env)
    if runs:
        output = step("run app on the CPU device", [os.path.join(binary, "app")],
                      binary + ".run.log", env=env, timeout=120)
        print(output, end="")
    print(f"OK: {project} {'built and ran' if runs else 'built'}")


def main(argv):
    if len(argv) < 2 or argv[1] not in ("check", "list", "build"):
        print(__doc__)
        return 2
    command, rest = argv[1], argv[2:]
    cmake_args = []
    if "--" in rest:
        cmake_args, rest = rest[rest.index("--") + 1:], rest[:rest.index("--")]
    options = {}
    while rest and rest[0] in ("--prefix", "--work", "--project"):
        options[rest[0][2:]] = rest[1]
        rest = rest[2:]
    problems, projects = check(rest)
    if command == "check":
        for problem in problems:
            print(problem)
        built = sum(len(files) for files in projects.values())
        print(f"{len(rest)} docs: {built} snippets in {len(projects)} projects; "
              f"{len(problems)} problems")
        return 1 if problems else 0
    if problems:
        print("\n".join(problems))
        return 1
    if command == "list":
        print("\n".join(sorted(projects)))
        return 0
    if options.keys() != {"prefix", "work", "project"}:
        print("build needs --prefix, --work and --project")
        return 2
    if options["project"] not in projects:
        print(f"no project {options['project']} in the docs (snippets.py list)")
        return 1
    build(os.path.abspath(options["prefix"]), os.path.abspath(options["work"]), options["project"],
          projects[options["project"]], cmake_args)
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv))
