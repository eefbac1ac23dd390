"""N-body simulation of the Jovian planets (the Computer Language Benchmarks
Game program, written with a Body class and typed helpers)."""
from typing import List

PI = 3.14159265358979323
SOLAR_MASS = 4 * PI * PI
DAYS_PER_YEAR = 365.24


class Body:
    def __init__(self, x: float, y: float, z: float, vx: float, vy: float, vz: float, mass: float) -> None:
        self.x = x
        self.y = y
        self.z = z
        self.vx = vx
        self.vy = vy
        self.vz = vz
        self.mass = mass


def make_system() -> List[Body]:
    sun = Body(0.0, 0.0, 0.0, 0.0, 0.0, 0.0, SOLAR_MASS)
    jupiter = Body(4.84143144246472090e+00, -1.16032004402742839e+00, -1.03622044471123109e-01,
                   1.66007664274403694e-03 * DAYS_PER_YEAR, 7.69901118419740425e-03 * DAYS_PER_YEAR,
                   -6.90460016972063023e-05 * DAYS_PER_YEAR, 9.54791938424326609e-04 * SOLAR_MASS)
    saturn = Body(8.34336671824457987e+00, 4.12479856412430479e+00, -4.03523417114321381e-01,
                  -2.76742510726862411e-03 * DAYS_PER_YEAR, 4.99852801234917238e-03 * DAYS_PER_YEAR,
                  2.30417297573763929e-05 * DAYS_PER_YEAR, 2.85885980666130812e-04 * SOLAR_MASS)
    uranus = Body(1.28943695621391310e+01, -1.51111514016986312e+01, -2.23307578892655734e-01,
                  2.96460137564761618e-03 * DAYS_PER_YEAR, 2.37847173959480950e-03 * DAYS_PER_YEAR,
                  -2.96589568540237556e-05 * DAYS_PER_YEAR, 4.36624404335156298e-05 * SOLAR_MASS)
    neptune = Body(1.53796971148509165e+01, -2.59193146099879641e+01, 1.79258772950371181e-01,
                   2.68067772490389322e-03 * DAYS_PER_YEAR, 1.62824170038242295e-03 * DAYS_PER_YEAR,
                   -9.51592254519715870e-05 * DAYS_PER_YEAR, 5.15138902046611451e-05 * SOLAR_MASS)
    return [sun, jupiter, saturn, uranus, neptune]


def offset_momentum(bodies: List[Body]) -> None:
    px = py = pz = 0.0
    for b in bodies:
        px -= b.vx * b.mass
        py -= b.vy * b.mass
        pz -= b.vz * b.mass
    sun = bodies[0]
    sun.vx = px / SOLAR_MASS
    sun.vy = py / SOLAR_MASS
    sun.vz = pz / SOLAR_MASS


def advance(bodies: List[Body], dt: float, steps: int) -> None:
    n = len(bodies)
    for _ in range(steps):
        for i in range(n):
            b1 = bodies[i]
            for j in range(i + 1, n):
                b2 = bodies[j]
                dx = b1.x - b2.x
                dy = b1.y - b2.y
                dz = b1.z - b2.z
                d2 = dx * dx + dy * dy + dz * dz
                mag = dt / (d2 * d2 ** 0.5)
                b1m = b1.mass * mag
                b2m = b2.mass * mag
                b1.vx -= dx * b2m
                b1.vy -= dy * b2m
                b1.vz -= dz * b2m
                b2.vx += dx * b1m
                b2.vy += dy * b1m
                b2.vz += dz * b1m
        for b in bodies:
            b.x += dt * b.vx
            b.y += dt * b.vy
            b.z += dt * b.vz


def energy(bodies: List[Body]) -> float:
    e = 0.0
    n = len(bodies)
    for i in range(n):
        b1 = bodies[i]
        e += 0.5 * b1.mass * (b1.vx * b1.vx + b1.vy * b1.vy + b1.vz * b1.vz)
        for j in range(i + 1, n):
            b2 = bodies[j]
            dx = b1.x - b2.x
            dy = b1.y - b2.y
            dz = b1.z - b2.z
            e -= (b1.mass * b2.mass) / (dx * dx + dy * dy + dz * dz) ** 0.5
    return e


def bench_nbody(steps: int) -> float:
    bodies = make_system()
    offset_momentum(bodies)
    advance(bodies, 0.01, steps)
    return energy(bodies)
