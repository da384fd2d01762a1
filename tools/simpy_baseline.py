"""The headline scenario's model in SimPy, for the "exact mode ≥ 300x faster than SimPy" comparison.

Same model as ddbsim's exact fidelity, kept minimal: Poisson arrivals at 50,000 requests/s,
Zipf(0.8) keys over 10 million values (an alias-free inverse-CDF table over the top 65,536
ranks plus a uniform tail, as ddbsim does), keys hashed onto 1,000 partitions, per-second
admission windows (partition cap 3,000 RCU, table budget 3,000,000 RCU), one 1-RCU read per
request. Every request is a SimPy event. Usage:

    pip install simpy
    python3 tools/simpy_baseline.py 10          # simulated seconds
    python3 tools/simpy_baseline.py 10 --json   # one JSON line: simulated_s, requests, wall_s

It prints simulated requests per wall-clock second. `tools/bench.sh` runs it right after
ddbsim's exact run (`ddbsim bench --simpy tools/simpy_baseline.py`) and prints the ratio.
"""

import bisect
import json
import random
import sys
import time

import simpy

RATE = 50_000
PARTITIONS = 1_000
CARD = 10_000_000
HEAD = 65_536
S = 0.8


def main(seconds: int, as_json: bool = False) -> None:
    rng = random.Random(1)
    w = [(r + 1) ** -S for r in range(HEAD)]
    tail = ((CARD + 0.5) ** (1 - S) - (HEAD + 0.5) ** (1 - S)) / (1 - S)
    total = sum(w) + tail
    cdf, acc = [], 0.0
    for x in w:
        acc += x / total
        cdf.append(acc)
    used = [0] * PARTITIONS
    table = [0]
    served = [0]
    throttled = [0]
    env = simpy.Environment()

    def clock():
        while True:
            yield env.timeout(1.0)
            for i in range(PARTITIONS):
                used[i] = 0
            table[0] = 0

    def request(key):
        p = hash((key, 12345)) % PARTITIONS
        if used[p] < 3000 and table[0] < 3_000_000:
            used[p] += 1
            table[0] += 1
            served[0] += 1
        else:
            throttled[0] += 1
        yield env.timeout(0)

    def arrivals():
        while True:
            yield env.timeout(rng.expovariate(RATE))
            u = rng.random()
            i = bisect.bisect_left(cdf, u)
            key = i if i < HEAD else rng.randrange(HEAD, CARD)
            env.process(request(key))

    env.process(clock())
    env.process(arrivals())
    start = time.perf_counter()
    env.run(until=seconds)
    wall = time.perf_counter() - start
    n = served[0] + throttled[0]
    if as_json:
        print(json.dumps({"simulated_s": seconds, "requests": n, "wall_s": wall}))
    else:
        print(f"SimPy: {seconds} s simulated, {n} requests in {wall:.2f} s wall: {n / wall / 1e6:.3f} M requests/s")


if __name__ == "__main__":
    args = [a for a in sys.argv[1:] if a != "--json"]
    main(int(args[0]) if args else 10, "--json" in sys.argv[1:])
