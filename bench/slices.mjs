// Request throughput measured in alternating slices (DESIGN §9): every target gets `rounds` slices
// of `seconds` under the same load, taken in turn, so a machine that grows noisy in the middle of
// a run slows every target, not only the one measured at that moment. The order rotates each round
// (round r starts with target r), so none always runs right after a warm-up or a busy neighbour.
import autocannon from 'autocannon';

function cannon(opts) {
  return new Promise((resolve, reject) => {
    autocannon(opts, (err, res) => (err ? reject(err) : resolve(res)));
  });
}

/**
 * `targets`: [{ name, opts }] where `opts` are autocannon's (url, headers, requests…).
 * Resolves a Map name → { rate, slices, p99s, p99, non2xx, errors }: `rate` is all the slices'
 * answered requests over their seconds, `slices` each slice's req/s in round order, `p99` the
 * largest slice p99 (the conservative figure), `non2xx` and `errors` summed over the slices.
 */
export async function alternatingSlices(targets, { rounds = 6, seconds = 5, warmupSeconds = 1, connections = 50 } = {}) {
  // A short unmeasured run each: JIT compilation and first-request caches do not land in slice 1.
  for (const target of targets) await cannon({ connections, duration: warmupSeconds, ...target.opts });
  const runs = new Map(targets.map((t) => [t.name, []]));
  for (let round = 0; round < rounds; round += 1) {
    for (let k = 0; k < targets.length; k += 1) {
      const target = targets[(round + k) % targets.length];
      const res = await cannon({ connections, duration: seconds, ...target.opts });
      runs.get(target.name).push({
        round,
        requests: res.requests.total,
        seconds: res.duration,
        p99: res.latency.p99,
        non2xx: res.non2xx,
        errors: res.errors + res.timeouts,
      });
    }
  }
  const summary = new Map();
  for (const [name, list] of runs) {
    const requests = list.reduce((n, r) => n + r.requests, 0);
    const secs = list.reduce((n, r) => n + r.seconds, 0);
    summary.set(name, {
      rate: requests / secs,
      slices: list.map((r) => r.requests / r.seconds),
      p99s: list.map((r) => r.p99),
      p99: Math.max(...list.map((r) => r.p99)),
      non2xx: list.reduce((n, r) => n + r.non2xx, 0),
      errors: list.reduce((n, r) => n + r.errors, 0),
    });
  }
  return summary;
}

/** One target's rate over another's, as a percentage: overall, and the lowest and highest of the rounds' own ratios. */
export function ratio(of, to) {
  const rounds = of.slices.map((rate, i) => rate / to.slices[i]);
  const pct = (x) => (x * 100).toFixed(1);
  return {
    overall: of.rate / to.rate,
    text: `${pct(of.rate / to.rate)}%`,
    range: `${pct(Math.min(...rounds))}–${pct(Math.max(...rounds))} %`,
  };
}
