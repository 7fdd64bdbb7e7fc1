#!/usr/bin/python3
"""Include cycles between modules, found from the sources.

A module is a file name without its extension, in its folder: tui/panel.c
and tui/panel.h are the module tui/panel, and a module's own private
header (X_priv.h) belongs to it (core/control/control_priv.h is
core/control/control).  An #include "h" of a file is an edge from the
file's module to the module of h.  A cycle is a strongly connected set of
two or more modules; for each, the script prints its modules and one
closed path through them, one cycle a line, and exits 1.

usage: cycles.py ROOT FOLDER...   (needs Python 3, standard library only)
"""
import os
import re
import sys

INCLUDE = re.compile(r'^\s*#\s*include\s*"([^"]+)"')


def module_of(folder, name):
    stem = os.path.splitext(name)[0]
    if name.endswith("_priv.h"):
        stem = stem[: -len("_priv")]
    return stem if folder == "." else folder + "/" + stem


def graph(root, folders):
    where = {}  # header name -> folder
    files = []
    for d in folders:
        path = os.path.join(root, d)
        if not os.path.isdir(path):
            continue
        for name in sorted(os.listdir(path)):
            if name.endswith(".h"):
                where.setdefault(name, d)
            if name.endswith((".c", ".h")):
                files.append((d, name))
    edges = {}
    for d, name in files:
        src = module_of(d, name)
        edges.setdefault(src, set())
        with open(os.path.join(root, d, name), encoding="utf-8", errors="replace") as f:
            for line in f:
                m = INCLUDE.match(line)
                if not m or m.group(1) not in where:
                    continue
                h = m.group(1)
                dst = module_of(where[h], h)
                if dst != src:
                    edges[src].add(dst)
                    edges.setdefault(dst, set())
    return edges


def components(edges):
    """Tarjan's strongly connected components, iterative."""
    index, low, on, stack, out = {}, {}, set(), [], []
    n = 0
    for start in sorted(edges):
        if start in index:
            continue
        work = [(start, iter(sorted(edges[start])))]
        index[start] = low[start] = n
        n += 1
        stack.append(start)
        on.add(start)
        while work:
            v, it = work[-1]
            w = next(it, None)
            if w is not None:
                if w not in index:
                    index[w] = low[w] = n
                    n += 1
                    stack.append(w)
                    on.add(w)
                    work.append((w, iter(sorted(edges[w]))))
                elif w in on:
                    low[v] = min(low[v], index[w])
                continue
            work.pop()
            if work:
                low[work[-1][0]] = min(low[work[-1][0]], low[v])
            if low[v] == index[v]:
                comp = []
                while True:
                    w = stack.pop()
                    on.discard(w)
                    comp.append(w)
                    if w == v:
                        break
                if len(comp) > 1:
                    out.append(sorted(comp))
    return sorted(out)


def path_in(edges, comp):
    """One closed walk from the first module through the component."""
    inside = set(comp)
    first = comp[0]
    # breadth-first back to the first module from each of its successors
    best = None
    for s in sorted(edges[first] & inside):
        prev, frontier = {s: None}, [s]
        while frontier and first not in prev:
            nxt = []
            for v in frontier:
                for w in sorted(edges[v] & inside):
                    if w not in prev:
                        prev[w] = v
                        nxt.append(w)
            frontier = nxt
        if first in prev:
            walk, v = [], first
            while v is not None:
                walk.append(v)
                v = prev[v]
            walk = [first] + walk[::-1]
            if best is None or len(walk) < len(best):
                best = walk
    return best


def main():
    if len(sys.argv) < 3:
        sys.stderr.write(__doc__)
        return 2
    edges = graph(sys.argv[1], sys.argv[2:])
    comps = components(edges)
    for comp in comps:
        print("cycle of %d modules: %s (%s)" % (len(comp), " ".join(comp),
                                              " -> ".join(path_in(edges, comp))))
    return 1 if comps else 0


if __name__ == "__main__":
    sys.exit(main())
