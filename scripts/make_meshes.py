#!/usr/bin/env python3
"""Writes the small meshes under assets/meshes/ that the shipped scenes use.

  chair.obj       a dining chair of closed boxes, usemtl "wood" and "cushion",
                  groups "legs", "seat", "backrest" (per-surface materials).
  plant_pot.stl   a binary STL surface of revolution (pot with a rounded
                  plant on top) whose 80-byte header starts with "solid", so
                  readers must detect binary by size, not by the first word.
  speaker.stl     an ASCII STL with two solids, "cabinet" and "grille".

Every part is a closed, outward-oriented triangle mesh (each edge used by two
triangles). Units: metres, origin at the object's footprint centre on the
floor (z = 0 is the floor). Run from anywhere:  python3 scripts/make_meshes.py
"""
import math
import os
import struct

ROOT = os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "assets", "meshes")


def box(lo, hi):
    """8 vertices and 12 outward triangles of an axis-aligned box."""
    v = [(hi[0] if q & 1 else lo[0], hi[1] if q & 2 else lo[1], hi[2] if q & 4 else lo[2]) for q in range(8)]
    quads = [(0, 4, 6, 2), (1, 3, 7, 5), (0, 1, 5, 4), (2, 6, 7, 3), (0, 2, 3, 1), (4, 5, 7, 6)]
    f = []
    for a, b, c, d in quads:
        f += [(a, b, c), (a, c, d)]
    return v, f


def revolve(profile, segments):
    """Closed surface of revolution about z of a profile [(r, z), ...] from the
    bottom axis point (r = 0) to the top axis point (r = 0)."""
    assert profile[0][0] == 0 and profile[-1][0] == 0
    v = [(0.0, 0.0, profile[0][1])]
    rings = profile[1:-1]
    for r, z in rings:
        for s in range(segments):
            a = 2 * math.pi * s / segments
            v.append((r * math.cos(a), r * math.sin(a), z))
    v.append((0.0, 0.0, profile[-1][1]))
    top = len(v) - 1
    ring = lambda k, s: 1 + k * segments + (s % segments)
    f = []
    for s in range(segments):  # bottom fan faces down
        f.append((0, ring(0, s + 1), ring(0, s)))
    for k in range(len(rings) - 1):
        for s in range(segments):
            a, b, c, d = ring(k, s), ring(k, s + 1), ring(k + 1, s + 1), ring(k + 1, s)
            f += [(a, b, c), (a, c, d)]
    last = len(rings) - 1
    for s in range(segments):  # top fan faces up
        f.append((top, ring(last, s), ring(last, s + 1)))
    return v, f


def write_obj(path, parts, header):
    """parts: [(group, usemtl, (v, f)), ...]"""
    with open(path, "w") as out:
        out.write(header)
        base = 0
        for group, mtl, (v, f) in parts:
            out.write(f"g {group}\nusemtl {mtl}\n")
            for p in v:
                out.write("v %.4f %.4f %.4f\n" % p)
            for t in f:
                out.write("f %d %d %d\n" % tuple(base + i + 1 for i in t))
            base += len(v)


def triangles(v, f):
    return [(v[a], v[b], v[c]) for a, b, c in f]


def normal(t):
    u = [t[1][i] - t[0][i] for i in range(3)]
    w = [t[2][i] - t[0][i] for i in range(3)]
    n = (u[1] * w[2] - u[2] * w[1], u[2] * w[0] - u[0] * w[2], u[0] * w[1] - u[1] * w[0])
    length = math.sqrt(sum(x * x for x in n)) or 1.0
    return tuple(x / length for x in n)


def write_stl_binary(path, tris, header):
    with open(path, "wb") as out:
        out.write(header.encode().ljust(80, b" ")[:80])
        out.write(struct.pack("<I", len(tris)))
        for t in tris:
            out.write(struct.pack("<12fH", *normal(t), *t[0], *t[1], *t[2], 0))


def write_stl_ascii(path, solids):
    with open(path, "w") as out:
        for name, tris in solids:
            out.write(f"solid {name}\n")
            for t in tris:
                out.write("  facet normal %.6f %.6f %.6f\n    outer loop\n" % normal(t))
                for p in t:
                    out.write("      vertex %.5f %.5f %.5f\n" % p)
                out.write("    endloop\n  endfacet\n")
            out.write(f"endsolid {name}\n")


def chair():
    legs = []
    w = 0.06  # legs 6 cm square: wider than the coarsest grid spacing we ship (~5 cm)
    for x in (-0.2, 0.2 - w):
        for y in (-0.2, 0.2 - w):
            legs.append(box((x, y, 0.0), (x + w, y + w, 0.43)))
    # Several closed boxes in one group: concatenate their vertex lists.
    def merge(parts):
        v, f = [], []
        for pv, pf in parts:
            f += [(a + len(v), b + len(v), c + len(v)) for a, b, c in pf]
            v += pv
        return v, f
    # Parts overlap a little rather than touch: touching boxes would share
    # edges between four triangles (non-manifold); overlapping closed parts
    # are each watertight and their union is what the winding number sees.
    seat = box((-0.23, -0.23, 0.42), (0.23, 0.23, 0.49))
    back = box((-0.225, 0.16, 0.47), (0.225, 0.225, 0.95))
    write_obj(os.path.join(ROOT, "chair.obj"),
              [("legs", "wood", merge(legs)), ("seat", "cushion", seat), ("backrest", "wood", back)],
              "# dining chair, metres, seat 0.46 x 0.46 m at 0.49 m, written by scripts/make_meshes.py\n")


def plant_pot():
    profile = [(0.0, 0.0), (0.13, 0.0), (0.16, 0.10), (0.19, 0.36), (0.20, 0.40), (0.17, 0.42)]
    # The plant: a rounded crown above the pot's rim, closed at the top.
    for k in range(1, 10):
        a = math.pi * k / 10
        profile.append((0.17 + 0.12 * math.sin(a), 0.42 + 0.35 * (1 - math.cos(a))))
    profile.append((0.0, 1.12))
    v, f = revolve(profile, 24)
    write_stl_binary(os.path.join(ROOT, "plant_pot.stl"), triangles(v, f),
                     "solid plant_pot (binary STL; header starts with 'solid' on purpose)")


def speaker():
    cabinet = box((-0.12, -0.14, 0.0), (0.12, 0.14, 0.95))
    grille = box((-0.10, -0.17, 0.12), (0.10, -0.12, 0.90))  # overlaps the cabinet's front
    write_stl_ascii(os.path.join(ROOT, "speaker.stl"), [("cabinet", triangles(*cabinet)), ("grille", triangles(*grille))])


if __name__ == "__main__":
    os.makedirs(ROOT, exist_ok=True)
    chair()
    plant_pot()
    speaker()
    for name in sorted(os.listdir(ROOT)):
        print(name, os.path.getsize(os.path.join(ROOT, name)), "bytes")
