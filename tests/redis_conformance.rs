//! The single-store model against a real Redis (issue 8): Debian's `redis-server` and
//! [`LockTable`] with `design = "token"` play the same seeded random sequences, and every reply
//! must agree.
//!
//! The commands are the ones a Redis lock client sends (Redis docs, "Distributed Locks with
//! Redis"): `SET key token NX PX ttl` (granted or refused), the release script (deleted or not),
//! an extension script that `PEXPIRE`s the key only if it still holds the token (extended or
//! not), `GET` (key present or absent, and whose), and waits between them.
//!
//! Clock-free: the model's clock moves by exactly the waits the test plans and sleeps, and a
//! key is only touched well inside its lease (less than `EARLY_MS` after its grant or
//! extension) or well after it (`LATE_MS` or more), never near `TTL_MS`. Real time can only run
//! ahead of the plan (a command takes time, a sleep overruns), so scheduler jitter would have to
//! stall the test for `TTL_MS - EARLY_MS` to flip a result.
//!
//! The server runs on a free loopback port with no persistence, its files in a temporary
//! directory, and is stopped when the test ends. The test skips, saying so, only when
//! `redis-server` is not installed; with `CI` set that fails instead, as `.ci/run` installs it.
#![allow(
    clippy::disallowed_methods,
    reason = "a real server runs in real time; only the simulation must not read a clock"
)]

use std::io::{ErrorKind, Write};
use std::net::TcpListener;
use std::process::{Child, Command, Stdio};
use std::thread::sleep;
use std::time::{Duration, Instant};

use locksim::engine::{Acquire, LockTable, Release};
use locksim::scenario::{Design, Lock};
use locksim::trace::{NodeId, Token};
use rand::{RngExt, SeedableRng};
use rand_chacha::ChaCha8Rng;
use tempfile::TempDir;

/// Lease of every grant and extension, ms.
const TTL_MS: u64 = 150;
/// A key is touched before this long after its grant or extension, ms...
const EARLY_MS: i64 = 40;
/// ...or only from this long after it, ms.
const LATE_MS: i64 = 300;
/// Keys, and workers whose tokens compete for them.
const KEYS: usize = 3;
const WORKERS: u32 = 3;
/// One random sequence per seed, each this much planned time long, ms.
const SEEDS: [u64; 4] = [1, 2, 3, 4];
const PLANNED_MS_PER_SEED: i64 = 2_500;

/// "Distributed Locks with Redis" (Redis docs): delete the key only if it holds our token.
const RELEASE_SCRIPT: &str = r#"if redis.call("get",KEYS[1]) == ARGV[1] then
    return redis.call("del",KEYS[1])
else
    return 0
end"#;
/// The extension that page describes: a new TTL only if the key still holds our token.
const EXTEND_SCRIPT: &str = r#"if redis.call("get",KEYS[1]) == ARGV[1] then
    return redis.call("pexpire",KEYS[1],ARGV[2])
else
    return 0
end"#;

#[derive(Clone, Copy, Debug)]
enum Op {
    Set { key: usize, token: Token },
    Release { key: usize, token: Token },
    Extend { key: usize, token: Token },
    Get { key: usize },
    Wait { ms: u64 },
}

impl Op {
    fn key(self) -> Option<usize> {
        match self {
            Op::Set { key, .. }
            | Op::Release { key, .. }
            | Op::Extend { key, .. }
            | Op::Get { key } => Some(key),
            Op::Wait { .. } => None,
        }
    }
}

/// A reply as both sides can give it.
#[derive(Clone, Debug, PartialEq, Eq)]
enum Reply {
    Granted(bool),
    Deleted(bool),
    Extended(bool),
    Value(Option<String>),
    Waited,
}

fn key_name(key: usize) -> String {
    format!("locksim:conformance:{key}")
}

/// The token as the lock's value in Redis.
fn value(token: Token) -> String {
    format!("{}.{}", token.worker, token.seq)
}

/// locksim's single store node, on the planned clock.
struct Model {
    table: LockTable,
    lock: Lock,
    now_ms: i64,
}

impl Model {
    fn new() -> Self {
        Model {
            table: LockTable::new(KEYS),
            lock: Lock {
                design: Design::Token,
                ttl_ms: TTL_MS,
                ..Lock::default()
            },
            now_ms: 0,
        }
    }

    fn apply(&mut self, op: Op) -> Reply {
        let (lock, now) = (&self.lock, self.now_ms);
        if let Some(key) = op.key() {
            // Redis expires a lapsed key when a command looks it up.
            self.table.expire_if_due(lock, key, now);
        }
        match op {
            Op::Set { key, token } => Reply::Granted(matches!(
                self.table.acquire(lock, key, token, false, now, now),
                Acquire::Granted { .. }
            )),
            Op::Release { key, token } => Reply::Deleted(matches!(
                self.table.release(lock, key, token),
                Release::Removed { .. }
            )),
            Op::Extend { key, token } => {
                Reply::Extended(self.table.renew(lock, key, token, now, now).is_some())
            }
            Op::Get { key } => Reply::Value(self.table.holder(key).map(value)),
            Op::Wait { ms } => {
                self.now_ms += ms as i64;
                Reply::Waited
            }
        }
    }
}

fn redis_apply(con: &mut redis::Connection, op: Op) -> redis::RedisResult<Reply> {
    Ok(match op {
        Op::Set { key, token } => {
            let set: Option<String> = redis::cmd("SET")
                .arg(key_name(key))
                .arg(value(token))
                .arg("NX")
                .arg("PX")
                .arg(TTL_MS)
                .query(con)?;
            Reply::Granted(set.is_some())
        }
        Op::Release { key, token } => {
            let deleted: i64 = redis::cmd("EVAL")
                .arg(RELEASE_SCRIPT)
                .arg(1)
                .arg(key_name(key))
                .arg(value(token))
                .query(con)?;
            Reply::Deleted(deleted == 1)
        }
        Op::Extend { key, token } => {
            let extended: i64 = redis::cmd("EVAL")
                .arg(EXTEND_SCRIPT)
                .arg(1)
                .arg(key_name(key))
                .arg(value(token))
                .arg(TTL_MS)
                .query(con)?;
            Reply::Extended(extended == 1)
        }
        Op::Get { key } => Reply::Value(redis::cmd("GET").arg(key_name(key)).query(con)?),
        Op::Wait { ms } => {
            sleep(Duration::from_millis(ms));
            Reply::Waited
        }
    })
}

/// Draws the next command, keeping every key clear of its expiry boundary.
struct Planner {
    rng: ChaCha8Rng,
    /// Planned time of each key's last grant or extension while it is set, ms.
    set_at: [Option<i64>; KEYS],
    /// Last attempt number of each worker.
    seq: [u32; WORKERS as usize],
    issued: Vec<Token>,
}

impl Planner {
    fn new(seed: u64) -> Self {
        Planner {
            rng: ChaCha8Rng::seed_from_u64(seed),
            set_at: [None; KEYS],
            seq: [0; WORKERS as usize],
            issued: Vec::new(),
        }
    }

    fn fresh_token(&mut self) -> Token {
        let worker = NodeId::new(self.rng.random_range(0..WORKERS));
        self.seq[worker.index()] += 1;
        let token = Token {
            worker,
            seq: self.seq[worker.index()],
        };
        self.issued.push(token);
        token
    }

    /// The holder the model shows (its lease may be over), an older token, or a new one.
    fn some_token(&mut self, holder: Option<Token>) -> Token {
        match (self.rng.random_range(0..10), holder) {
            (0..5, Some(h)) => h,
            (5..8, _) if !self.issued.is_empty() => {
                self.issued[self.rng.random_range(0..self.issued.len())]
            }
            _ => self.fresh_token(),
        }
    }

    fn next(&mut self, model: &Model) -> Op {
        let key = self.rng.random_range(0..KEYS);
        let op = match self.rng.random_range(0..100) {
            0..30 => Op::Set {
                key,
                token: self.fresh_token(),
            },
            30..50 => Op::Release {
                key,
                token: self.some_token(model.table.holder(key)),
            },
            50..70 => Op::Extend {
                key,
                token: self.some_token(model.table.holder(key)),
            },
            70..88 => Op::Get { key },
            88..99 => Op::Wait {
                ms: self.rng.random_range(1..=5),
            },
            _ => Op::Wait {
                ms: self.rng.random_range(LATE_MS as u64..=LATE_MS as u64 + 60),
            },
        };
        match self.set_at[key] {
            // Too near the key's expiry to ask about it: wait until well past it instead.
            Some(at)
                if op.key().is_some() && (EARLY_MS..LATE_MS).contains(&(model.now_ms - at)) =>
            {
                Op::Wait {
                    ms: (at + LATE_MS - model.now_ms) as u64,
                }
            }
            _ => op,
        }
    }

    /// Follows the agreed reply: a grant or extension starts the lease, a delete ends it.
    fn observe(&mut self, op: Op, reply: &Reply, now_ms: i64) {
        match (op.key(), reply) {
            (Some(key), Reply::Granted(true) | Reply::Extended(true)) => {
                self.set_at[key] = Some(now_ms)
            }
            (Some(key), Reply::Deleted(true)) => self.set_at[key] = None,
            _ => {}
        }
    }
}

/// A `redis-server` of its own, stopped (and its directory removed) when dropped.
struct RedisServer {
    child: Child,
    port: u16,
    _dir: TempDir,
}

impl RedisServer {
    /// `None` when `redis-server` is not installed.
    fn start() -> Option<RedisServer> {
        // Another process may take the free port before the server binds it: try again.
        for _ in 0..3 {
            let port = TcpListener::bind("127.0.0.1:0")
                .and_then(|l| l.local_addr())
                .expect("a free loopback port")
                .port();
            let dir = tempfile::tempdir().expect("a temporary directory");
            let log = dir.path().join("redis.log");
            let child = Command::new("redis-server")
                .args(["--port", &port.to_string(), "--bind", "127.0.0.1"])
                .args(["--save", "", "--appendonly", "no", "--daemonize", "no"])
                .arg("--dir")
                .arg(dir.path())
                .arg("--logfile")
                .arg(&log)
                .stdin(Stdio::null())
                .stdout(Stdio::null())
                .stderr(Stdio::null())
                .spawn();
            let child = match child {
                Ok(child) => child,
                Err(e) if e.kind() == ErrorKind::NotFound => return None,
                Err(e) => panic!("starting redis-server: {e}"),
            };
            let mut server = RedisServer {
                child,
                port,
                _dir: dir,
            };
            if server.wait_ready() {
                return Some(server);
            }
            let text = std::fs::read_to_string(&log).unwrap_or_default();
            assert!(
                text.contains("Address already in use"),
                "redis-server on port {port} did not start; its log:\n{text}"
            );
        }
        panic!("redis-server found no free port in three tries");
    }

    /// Waits up to 5 s for the server to answer `PING`; false if it exited.
    fn wait_ready(&mut self) -> bool {
        let deadline = Instant::now() + Duration::from_secs(5);
        while Instant::now() < deadline {
            if self
                .child
                .try_wait()
                .expect("redis-server's status")
                .is_some()
            {
                return false;
            }
            if let Ok(mut con) = self.connect() {
                let pong: redis::RedisResult<String> = redis::cmd("PING").query(&mut con);
                if pong.is_ok() {
                    return true;
                }
            }
            sleep(Duration::from_millis(20));
        }
        panic!(
            "redis-server on port {} did not answer within 5 s",
            self.port
        );
    }

    fn connect(&self) -> redis::RedisResult<redis::Connection> {
        let client = redis::Client::open(format!("redis://127.0.0.1:{}/", self.port))?;
        let con = client.get_connection_with_timeout(Duration::from_millis(500))?;
        // A reply that never comes fails the test instead of hanging it.
        con.set_read_timeout(Some(Duration::from_secs(5)))?;
        Ok(con)
    }
}

impl Drop for RedisServer {
    fn drop(&mut self) {
        // It may have exited already; either way it must not outlive the test.
        let _ = self.child.kill();
        let _ = self.child.wait();
    }
}

/// Writes past the test harness's capture, so a skip or the figures show in a passing run.
fn say(line: &str) {
    let _ = writeln!(std::io::stderr(), "{line}");
}

/// Tally of the replies compared, by kind and outcome.
#[derive(Default)]
struct Tally {
    compared: usize,
    granted: [usize; 2],
    deleted: [usize; 2],
    extended: [usize; 2],
    present: [usize; 2],
    /// Commands on a key past its lease, neither released nor extended: expiry checks.
    after_expiry: usize,
}

impl Tally {
    fn add(&mut self, reply: &Reply) {
        let slot = match reply {
            Reply::Granted(b) => &mut self.granted[*b as usize],
            Reply::Deleted(b) => &mut self.deleted[*b as usize],
            Reply::Extended(b) => &mut self.extended[*b as usize],
            Reply::Value(v) => &mut self.present[v.is_some() as usize],
            Reply::Waited => return,
        };
        *slot += 1;
        self.compared += 1;
    }
}

#[test]
fn the_single_store_model_answers_as_redis_does() {
    let Some(server) = RedisServer::start() else {
        assert!(
            std::env::var_os("CI").is_none(),
            "redis-server is not installed, and CI must run this test: .ci/run installs it"
        );
        say("SKIPPED redis_conformance: redis-server not found on PATH \
             (Debian: apt-get install -y redis-server)");
        return;
    };
    let mut con = server.connect().expect("a connection to redis-server");
    let started = Instant::now();
    let mut tally = Tally::default();
    for seed in SEEDS {
        let _: () = redis::cmd("FLUSHALL").query(&mut con).expect("FLUSHALL");
        let mut model = Model::new();
        let mut planner = Planner::new(seed);
        let mut set_real: [Option<Instant>; KEYS] = [None; KEYS];
        let mut history: Vec<(i64, Op, Reply)> = Vec::new();
        while model.now_ms < PLANNED_MS_PER_SEED {
            let now = model.now_ms;
            let op = planner.next(&model);
            if let Some(key) = op.key()
                && planner.set_at[key].is_some_and(|at| now - at >= LATE_MS)
            {
                tally.after_expiry += 1;
            }
            let sent = Instant::now();
            let real = redis_apply(&mut con, op)
                .unwrap_or_else(|e| panic!("seed {seed}: redis-server failed {op:?}: {e}"));
            let modelled = model.apply(op);
            if real != modelled {
                let since_set = op
                    .key()
                    .and_then(|k| set_real[k])
                    .map(|t| format!("{} ms", sent.duration_since(t).as_millis()));
                let recent: Vec<String> = history
                    .iter()
                    .rev()
                    .take(12)
                    .rev()
                    .map(|(at, op, reply)| format!("  at {at} ms: {op:?} -> {reply:?}"))
                    .collect();
                panic!(
                    "seed {seed}, at planned {now} ms: {op:?}\n  redis-server: {real:?}\n  \
                     locksim:      {modelled:?}\nreal time since this key's last grant or \
                     extension: {since_set:?}\nearlier commands:\n{}\nreproduce with seed={seed}",
                    recent.join("\n")
                );
            }
            planner.observe(op, &real, now);
            if let (Some(key), Reply::Granted(true) | Reply::Extended(true)) = (op.key(), &real) {
                set_real[key] = Some(sent);
            }
            tally.add(&real);
            history.push((now, op, real));
        }
    }
    let elapsed = started.elapsed();
    say(&format!(
        "redis_conformance: {} replies agreed over {} seeds in {:.1} s (granted {}/{}, deleted \
         {}/{}, extended {}/{}, present {}/{}, {} commands after an expiry)",
        tally.compared,
        SEEDS.len(),
        elapsed.as_secs_f64(),
        tally.granted[1],
        tally.granted[0] + tally.granted[1],
        tally.deleted[1],
        tally.deleted[0] + tally.deleted[1],
        tally.extended[1],
        tally.extended[0] + tally.extended[1],
        tally.present[1],
        tally.present[0] + tally.present[1],
        tally.after_expiry,
    ));
    // The sequences must have reached every outcome, or agreeing proves little.
    for (what, counts) in [
        ("SET NX PX", tally.granted),
        ("release", tally.deleted),
        ("extend", tally.extended),
        ("GET", tally.present),
    ] {
        assert!(
            counts[0] > 0 && counts[1] > 0,
            "{what} never {} in these seeds",
            if counts[1] == 0 {
                "succeeded"
            } else {
                "failed"
            }
        );
    }
    assert!(
        tally.after_expiry > 0,
        "no command touched a key after its lease ran out"
    );
}
