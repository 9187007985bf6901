"""The lock of benches/data/four-workers-token.toml written the way a teacher would script it
in SimPy, to measure locksim against.

Workers loop forever: send an acquire to the store (a uniform 1-10 ms one-way delay each
way); on a grant, work 50 ms, send a compare-and-delete release and wait for its reply; on a
refusal, back off retry_ms plus a uniform jitter of up to half of it. The store grants when
the key is free or its 100 ms TTL has run out, with a fresh owner token each time.

Every message delivery and every timer is one simulated event; the model stops after
--events of them and prints one JSON line: events, wall seconds, events per second.
"""
import argparse
import json
import random
import time

import simpy

TTL_MS = 100.0
WORK_MS = 50.0
RETRY_MS = 5.0


class Store:
    """One lock key: its owner token and when its lease runs out (ms)."""

    def __init__(self):
        self.owner = None
        self.expires = 0.0
        self.next_token = 0

    def acquire(self, now):
        if self.owner is not None and now < self.expires:
            return None
        self.next_token += 1
        self.owner, self.expires = self.next_token, now + TTL_MS
        return self.owner

    def release(self, token):
        if self.owner == token:
            self.owner = None


def simulate(seed, workers, limit):
    rng = random.Random(seed)
    env = simpy.Environment()
    store = Store()
    done = env.event()
    count = [0]

    def event():
        count[0] += 1
        if count[0] == limit and not done.triggered:
            done.succeed()

    def hop():
        return env.timeout(rng.uniform(1.0, 10.0))

    def worker():
        while True:
            yield hop()
            event()
            token = store.acquire(env.now)
            yield hop()
            event()
            if token is None:
                yield env.timeout(RETRY_MS + rng.uniform(0.0, RETRY_MS / 2))
                event()
                continue
            yield env.timeout(WORK_MS)
            event()
            yield hop()
            event()
            store.release(token)
            yield hop()
            event()

    for _ in range(workers):
        env.process(worker())
    env.run(until=done)
    return count[0]


def main():
    parser = argparse.ArgumentParser()
    parser.add_argument("--events", type=int, default=1_000_000)
    parser.add_argument("--workers", type=int, default=4)
    parser.add_argument("--seed", type=int, default=1)
    args = parser.parse_args()
    start = time.perf_counter()
    events = simulate(args.seed, args.workers, args.events)
    wall = time.perf_counter() - start
    print(json.dumps({"events": events, "wall_s": wall, "events_per_s": events / wall}))


if __name__ == "__main__":
    main()
