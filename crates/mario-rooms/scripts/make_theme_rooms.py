#!/usr/bin/env python3
"""Writes the rooms and sections of the embedded library's underground, athletic and castle
themes (crates/mario-rooms/library/themes/<theme>/) and refreshes src/builtin_files.rs.

The output is committed as ordinary room and section files (the documented formats); this
script only saves drawing them by hand. Run from crates/mario-rooms:

    python3 scripts/make_theme_rooms.py

then check every room on its own: `levelgen mario --theme NAME --check-rooms`.
"""
import os

W = 20


class Room:
    """A room canvas: `h` rows of `w` air cells, entrance `m` at (0, h-2), exit `f` at
    (w-1, h-2) unless told otherwise."""

    def __init__(self, h, w=W, entrance=True, exit=True, row=None):
        self.w, self.h = w, h
        self.g = [["-"] * w for _ in range(h)]
        self.macros = {}
        row = h - 2 if row is None else row
        if entrance:
            self.g[row][0] = "m"
        if exit:
            self.g[row][w - 1] = "f"

    def put(self, x, y, ch):
        self.g[y][x] = ch
        return self

    def rect(self, x0, y0, x1, y1, ch):
        for y in range(y0, y1 + 1):
            for x in range(x0, x1 + 1):
                self.g[y][x] = ch
        return self

    def text(self, x, y, s):
        for i, ch in enumerate(s):
            if ch != " ":
                self.g[y][x + i] = ch
        return self

    def floor(self, ch="X", pits=()):
        """Ground on the bottom row, with pits as (x0, x1) inclusive ranges."""
        self.rect(0, self.h - 1, self.w - 1, self.h - 1, ch)
        for x0, x1 in pits:
            self.rect(x0, self.h - 1, x1, self.h - 1, "-")
        return self

    def ceiling(self, ch):
        return self.rect(0, 0, self.w - 1, 0, ch)

    def macro(self, x, y, options, width=1):
        """An inline macro `width` cells wide, e.g. options "g=50;k=25;"."""
        self.macros[(x, y)] = ("{" + options + "}", width)
        for i in range(width):
            self.g[y][x + i] = "-"
        return self

    def free(self, x0, y0, x1, y1):
        return all(
            self.g[y][x] == "-" and (x, y) not in self.macros
            for y in range(y0, y1 + 1)
            for x in range(x0, x1 + 1)
        )

    def vary(self):
        """Adds what makes two draws of the room differ: a 3-wide decoration (coins or
        blocks) in the first free spot high up, and an enemy that may appear near the middle
        of a free stretch of ground at least five tiles wide."""
        for y in range(3, 7):
            x = next((x for x in range(5, 13) if self.free(x - 1, y - 1, x + 3, y + 1)), None)
            if x is not None:
                self.macro(x, y, "ooo=40;SQS=25;S?S=15;", 3)
                break
        solid = set("X#S")
        for x in sorted(range(4, 16), key=lambda x: abs(x - 10)):
            for y in range(2, self.h - 1):
                wide = range(x - 2, x + 3)
                if self.free(x - 2, y - 1, x + 2, y) and all(self.g[y + 1][c] in solid for c in wide):
                    self.macro(x, y, "g=30;k=15;")
                    return self
        return self

    def text_of(self, difficulty, tags):
        rows = []
        for y, row in enumerate(self.g):
            out = []
            skip = 0
            for x, ch in enumerate(row):
                if skip:
                    skip -= 1
                    continue
                text, width = self.macros.get((x, y), (ch, 1))
                out.append(text)
                skip = width - 1
            rows.append("".join(out))
        return f"{difficulty}\n{', '.join(tags)}\n" + "\n".join(rows) + "\n"


ROOMS = {}


def room(theme, name, difficulty, tags, r):
    if "start" not in tags and "finish" not in tags:
        r.vary()
    ROOMS[(theme, name)] = r.text_of(difficulty, tags)


# ---------------------------------------------------------------- underground
# 14 rows: a brick ceiling on row 0, the entrance on row 12, ground on row 13.
def cave(h=14):
    return Room(h).ceiling("S").floor()


def underground():
    t = "underground"
    r = Room(14, 24, entrance=False).ceiling("S").floor()
    r.put(2, 12, "M").put(23, 12, "f").text(8, 8, "?Q?").text(14, 4, "SSSS")
    room(t, "u_start", 1, ["start", "safe"], r)
    r = Room(14, 24, exit=False).ceiling("S").floor()
    r.rect(12, 9, 19, 12, "#").rect(14, 6, 19, 8, "#").put(21, 12, "F")
    r.text(2, 9, "ooo")
    room(t, "u_finish", 1, ["finish", "safe"], r)

    r = cave().text(4, 8, "oooooo").macro(12, 12, "g=50;")
    room(t, "u_corridor", 1, ["safe", "easy"], r)
    r = cave().text(3, 11, "ooooo").text(11, 11, "ooooo").text(3, 4, "S S S").text(11, 4, "SSSSS")
    room(t, "u_coin_vault", 1, ["safe", "bonus", "easy"], r)
    r = cave().rect(3, 1, 5, 3, "S").rect(12, 1, 14, 4, "S").text(6, 8, "S?SQS").macro(16, 12, "g=60;")
    room(t, "u_brick_hang", 2, ["safe", "bonus"], r)
    r = cave().rect(5, 1, 14, 7, "S").text(6, 11, "oooooooo").macro(10, 12, "g=40;")
    room(t, "u_low_pass", 2, ["challenge"], r)
    r = cave().text(4, 10, "<>").text(4, 11, "[]").text(4, 12, "[]")
    r.text(12, 9, "<>").text(12, 10, "[]").text(12, 11, "[]").text(12, 12, "[]").macro(8, 12, "g=70;")
    room(t, "u_pipe_row", 2, ["challenge", "easy"], r)
    r = cave().rect(4, 12, 6, 12, "#").rect(5, 11, 6, 11, "#").rect(6, 10, 6, 10, "#")
    r.rect(13, 10, 13, 12, "#").rect(14, 11, 15, 12, "#").rect(15, 12, 15, 12, "#")
    r.text(7, 7, "oooooo")
    room(t, "u_steps", 2, ["safe", "stairs"], r)
    r = cave()
    r.floor(pits=[(5, 7), (12, 14)]).text(5, 9, "ooo").text(12, 9, "ooo").macro(17, 12, "g=50;k=30;")
    room(t, "u_pits", 3, ["challenge", "jumps"], r)
    r = cave().rect(3, 11, 4, 12, "S").rect(10, 11, 11, 12, "S").rect(16, 11, 17, 12, "S")
    r.put(7, 12, "k").macro(13, 12, "k=60;g=40;").text(6, 7, "S?S")
    room(t, "u_koopa_den", 3, ["challenge", "enemies"], r)
    r = cave().floor(pits=[(5, 13)]).rect(4, 9, 14, 9, "S").text(6, 6, "ooooooo")
    r.rect(4, 10, 4, 12, "S").rect(14, 10, 14, 12, "S")
    room(t, "u_brick_bridge", 3, ["challenge", "jumps"], r)
    r = cave().rect(4, 11, 6, 12, "#").rect(12, 11, 14, 12, "#").text(8, 12, "y-y")
    r.text(7, 7, "ooooo")
    room(t, "u_spiky_pit", 4, ["challenge", "hard"], r)
    r = cave().rect(4, 1, 5, 7, "S").rect(9, 9, 10, 12, "#").rect(14, 1, 15, 7, "S").macro(12, 12, "g=60;k=40;")
    r.text(8, 6, "oooo")
    room(t, "u_column_maze", 4, ["challenge", "hard"], r)
    r = cave().rect(2, 1, 17, 8, "S").macro(6, 12, "g=100;").macro(13, 12, "g=60;")
    room(t, "u_twist_crawl", 3, ["twist"], r)
    r = cave().floor(pits=[(4, 6), (10, 12)]).rect(7, 10, 9, 12, "#").rect(13, 10, 15, 12, "#")
    r.text(7, 7, "ooo").text(13, 7, "ooo").put(8, 9, "g")
    room(t, "u_twist_pillars", 3, ["twist", "jumps"], r)


# ---------------------------------------------------------------- athletic
# 16 rows, high up: the entrance and exit on row 8, standing on tree trunks (ground pillars
# from row 9 down) at both ends; between them pits, trunks, bricks and platforms.
def sky():
    r = Room(16, row=8)
    pillar(r, 0, 2, 9)
    pillar(r, 17, 19, 9)
    return r


def pillar(r, x0, x1, top, ch="X"):
    r.rect(x0, top, x1, r.h - 1, ch)
    return r


def athletic():
    t = "athletic"
    r = Room(16, 26, entrance=False, row=8).floor()
    r.put(2, 14, "M").put(25, 8, "f")
    for i, x in enumerate(range(8, 13)):
        r.rect(x, 13 - i, x, 14, "#")
    pillar(r, 13, 25, 9)
    r.text(4, 10, "S?S").text(15, 4, "oooooo").text(18, 6, "S?S")
    room(t, "a_start", 1, ["start", "safe"], r)
    r = Room(16, 26, exit=False, row=8).floor()
    pillar(r, 0, 6, 9)
    for i, x in enumerate(range(7, 12)):
        r.rect(x, 10 + i, x, 14, "#")
    r.put(22, 14, "F").text(2, 5, "ooooo")
    room(t, "a_finish", 1, ["finish", "safe"], r)

    r = pillar(sky(), 7, 12, 9).text(4, 5, "oooooooooooo").text(8, 7, "SS")
    room(t, "a_treetops", 1, ["safe", "easy"], r)
    r = sky().rect(3, 9, 16, 9, "X").rect(8, 10, 10, 15, "X")
    r.text(3, 3, "oooo").text(12, 3, "oooo").text(6, 5, "S?S?S").text(7, 6, "ooo")
    room(t, "a_cloud_coins", 1, ["safe", "bonus", "easy"], r)
    r = pillar(sky(), 6, 13, 11).text(5, 6, "oooooooooo").text(8, 4, "SQS")
    room(t, "a_low_platforms", 2, ["safe"], r)
    r = sky()
    for i, x in enumerate(range(3, 7)):
        pillar(r, x, x, 8 - i)
    pillar(r, 7, 11, 5).text(8, 2, "ooo")
    for i, x in enumerate(range(12, 15)):
        pillar(r, x, x, 6 + i)
    room(t, "a_stairs_sky", 2, ["safe", "stairs"], r)
    r = sky().text(5, 7, "%%%%%").rect(7, 8, 7, 15, "|").text(12, 6, "%%%%").rect(13, 7, 14, 15, "|")
    r.text(5, 4, "ooooo").text(12, 3, "oooo")
    room(t, "a_mushrooms", 2, ["safe", "bonus"], r)
    r = sky()
    pillar(r, 6, 7, 8)
    pillar(r, 11, 12, 7)
    r.text(5, 4, "oooooooooo").text(14, 6, "SS")
    room(t, "a_pillars", 3, ["challenge", "jumps"], r)
    r = sky().rect(5, 9, 7, 9, "S").rect(10, 7, 12, 7, "S").rect(14, 8, 15, 8, "S")
    r.text(9, 3, "ooooo").text(4, 6, "ooo")
    room(t, "a_floating_bricks", 3, ["challenge", "jumps"], r)
    r = sky()
    pillar(r, 5, 7, 7)
    pillar(r, 10, 12, 5)
    pillar(r, 14, 15, 7)
    r.text(9, 2, "ooooo").put(11, 4, "g")
    room(t, "a_high_route", 3, ["challenge"], r)
    r = sky()
    pillar(r, 5, 8, 9)
    pillar(r, 11, 14, 7)
    r.put(7, 8, "g").put(13, 6, "k").text(10, 3, "oooooo")
    room(t, "a_goomba_ledges", 3, ["challenge", "enemies"], r)
    r = sky()
    pillar(r, 7, 8, 8)
    pillar(r, 12, 13, 8)
    r.put(10, 5, "G").text(6, 3, "oooooooo")
    room(t, "a_winged", 4, ["challenge", "hard"], r)
    r = pillar(sky(), 8, 10, 8).text(7, 4, "ooooo").text(3, 6, "SS").text(15, 6, "SS")
    room(t, "a_long_gaps", 4, ["challenge", "hard", "jumps"], r)
    r = sky()
    for x, top in [(4, 8), (6, 7), (8, 6), (10, 5), (12, 6), (14, 8)]:
        pillar(r, x, x, top)
    r.text(7, 2, "oooooo")
    room(t, "a_twist_stairs", 3, ["twist", "jumps"], r)
    r = sky().rect(3, 9, 16, 9, "S").put(9, 8, "k").text(4, 5, "oooooooooooo").text(8, 3, "S?S")
    room(t, "a_twist_bridge", 3, ["twist"], r)


# ---------------------------------------------------------------- castle
# 14 rows: a stone ceiling on row 0, the entrance on row 12, floor on row 13. Bullet-bill
# launchers stand in for fire bars (a hazard crossed with timing); spikies in a trench
# stand in for lava.
def hall(h=14):
    return Room(h).ceiling("#").floor()


def cannon(r, x, top):
    r.put(x, top, "B")
    r.rect(x, top + 1, x, r.h - 2, "b")
    return r


def castle():
    t = "castle"
    r = Room(14, 24, entrance=False).ceiling("#").floor()
    r.put(2, 12, "M").put(23, 12, "f").rect(8, 1, 9, 4, "#").rect(15, 1, 16, 4, "#")
    room(t, "c_start", 1, ["start", "safe"], r)
    r = Room(14, 24, exit=False).ceiling("#").floor()
    r.rect(10, 9, 13, 12, "#").text(10, 8, "-oo-").put(20, 12, "F").put(6, 12, "g")
    room(t, "c_finish", 1, ["finish", "safe"], r)

    r = hall().rect(4, 1, 5, 5, "#").rect(13, 1, 14, 5, "#").macro(9, 12, "g=40;")
    room(t, "c_hall", 1, ["safe", "easy"], r)
    r = hall().text(4, 8, "?Q?").text(12, 8, "Q@Q").text(4, 5, "ooo").text(12, 5, "ooo")
    room(t, "c_treasure", 1, ["safe", "bonus"], r)
    r = hall()
    for i in range(4):
        r.rect(4 + i, 12 - i, 4 + i, 12, "#")
    r.rect(8, 9, 10, 12, "#")
    for i in range(3):
        r.rect(11 + i, 10 + i, 11 + i, 12, "#")
    r.text(7, 5, "ooo")
    room(t, "c_steps", 2, ["safe", "stairs"], r)
    r = cannon(hall(), 10, 10).text(8, 6, "ooooo").macro(15, 12, "g=50;")
    room(t, "c_cannon", 2, ["challenge"], r)
    r = hall().rect(3, 1, 16, 7, "#").macro(6, 12, "g=100;").macro(13, 12, "g=50;k=30;")
    room(t, "c_low_ceiling", 2, ["challenge", "enemies"], r)
    r = cannon(cannon(hall(), 6, 10), 14, 9).text(9, 6, "ooo")
    room(t, "c_twin_cannons", 3, ["challenge", "hard"], r)
    r = hall().floor(pits=[(8, 10)]).rect(3, 1, 16, 5, "#").text(8, 9, "ooo")
    room(t, "c_lava_jump", 3, ["challenge", "jumps"], r)
    r = hall().floor(pits=[(4, 15)]).rect(7, 11, 8, 11, "#").rect(11, 11, 12, 11, "#")
    r.text(6, 7, "oooooooo")
    room(t, "c_lava_bridge", 3, ["challenge", "jumps"], r)
    r = hall().floor(pits=[(5, 7), (11, 13)]).rect(8, 10, 10, 13, "#").rect(14, 10, 16, 13, "#")
    r.text(8, 6, "ooo").put(15, 9, "g")
    room(t, "c_pillar_hop", 3, ["challenge", "jumps"], r)
    r = hall().rect(3, 11, 6, 12, "#").rect(12, 11, 15, 12, "#").text(7, 12, "-y-y-")
    r.text(7, 7, "ooooo")
    room(t, "c_spiky_moat", 4, ["challenge", "hard"], r)
    r = cannon(hall().floor(pits=[(9, 12)]), 6, 9).text(9, 7, "oooo").rect(13, 10, 15, 12, "#")
    room(t, "c_cannon_pit", 4, ["challenge", "hard", "jumps"], r)
    r = cannon(cannon(hall(), 4, 11), 15, 11).rect(8, 8, 11, 8, "#").text(8, 5, "oooo").put(10, 12, "g")
    room(t, "c_twist_gauntlet", 3, ["twist"], r)
    r = hall().rect(2, 1, 17, 8, "#").put(8, 12, "k").macro(14, 12, "k=50;r=50;")
    room(t, "c_twist_corridor", 3, ["twist", "enemies"], r)


# ---------------------------------------------------------------- sections
def cells(spec, roles, row=14):
    """A section of 20-wide, 16-tall cells: `spec` lists (char, tags) left to right; every
    cell's entrance and exit are on `row`."""
    decl = [f"roles: {roles}"] + [f"{c}: {tags}" for c, tags in spec]
    rows = []
    n = len(spec)
    for y in range(16):
        line = ""
        for i, (c, _) in enumerate(spec):
            if y == row:
                first = "M" if i == 0 else "m"
                last = "F" if i == n - 1 else "f"
                line += first + c * 18 + last
            else:
                line += c * 20
        rows.append(line)
    # The first cell's entrance is the section's `M`, as in the embedded overground sections.
    return "\n".join(decl) + "\n---\n" + "\n".join(rows) + "\n"


SECTIONS = {}


def theme_sections(t, p, row):
    SECTIONS[(t, f"{p}_opening")] = cells([("a", "safe"), ("b", "")], "intro", row)
    SECTIONS[(t, f"{p}_run")] = cells(
        [("a", "safe"), ("b", "challenge"), ("c", "bonus")], "intro, hard", row)
    SECTIONS[(t, f"{p}_gauntlet")] = cells(
        [("a", "challenge"), ("b", "challenge, jumps"), ("c", "challenge"), ("d", "safe")],
        "hard", row)
    SECTIONS[(t, f"{p}_twist")] = cells(
        [("a", "safe, !twist"), ("b", "twist"), ("c", "bonus, !twist")], "twist", row)


def main():
    underground()
    athletic()
    castle()
    for t, p, row in [("underground", "u", 14), ("athletic", "a", 8), ("castle", "c", 14)]:
        theme_sections(t, p, row)
    base = os.path.join(os.path.dirname(__file__), "..", "library")
    for (t, name), text in list(ROOMS.items()) + list(SECTIONS.items()):
        kind = "rooms" if (t, name) in ROOMS else "sections"
        d = os.path.join(base, "themes", t, kind)
        os.makedirs(d, exist_ok=True)
        with open(os.path.join(d, name + ".txt"), "w") as f:
            f.write(text)
    files = []
    for root, _, names in os.walk(base):
        for n in names:
            files.append(os.path.relpath(os.path.join(root, n), base))
    files.sort()
    out = os.path.join(os.path.dirname(__file__), "..", "src", "builtin_files.rs")
    with open(out, "w") as f:
        f.write("// The embedded default library: every file of crates/mario-rooms/library/ (keep in sync;\n")
        f.write("// the test `builtin_list_matches_the_library_dir` checks it; scripts/make_theme_rooms.py\n")
        f.write("// rewrites it).\nembed![\n")
        for p in files:
            f.write(f'    "{p}",\n')
        f.write("]\n")


if __name__ == "__main__":
    main()
