#!/usr/bin/env node
// A schedtrace adapter for the cache layer, in plain Node.js (no npm
// packages): upstream kube-scheduler v1.26.7's scheduler cache
// (pkg/scheduler/internal/cache/cache.go), written from docs/ADAPTERS.md
// and docs/FORMAT.md. Run it as
//
//   schedtrace conformance --sut="exec:node docs/examples/cache-adapter.js" --layer=cache
//
// Integers. The trace's clock `t` goes up to 2^62 ms, an assumed pod's
// deadline is `t` in nanoseconds plus a ttl, and a node's `requested`
// amounts are int64s that may wrap: none of them fits a JavaScript number
// (exact only up to 2^53). JSON.parse would round them silently, so this
// file reads JSON with its own small parser, which turns every integer into
// a BigInt, and writes BigInts back as their digits, unquoted.
//
// Resource quantities are read as upstream's resource.Quantity reads them,
// overflow included: BigInt again, wrapped to Go's int64 where Go wraps.
'use strict';

const readline = require('readline');

// ---------------------------------------------------------------------------
// JSON with exact integers.

// Parses one JSON text. Integers (no fraction, no exponent) become BigInts;
// other numbers become Numbers; strings are decoded by JSON.parse itself.
function parseJson(text) {
  let i = 0;
  const fail = (what) => {
    throw new SyntaxError(`JSON: ${what} at offset ${i}`);
  };
  const ws = () => {
    while (i < text.length && ' \t\r\n'.includes(text[i])) i++;
  };
  const value = () => {
    ws();
    const c = text[i];
    if (c === '{') {
      i++;
      const obj = {};
      ws();
      if (text[i] === '}') {
        i++;
        return obj;
      }
      for (;;) {
        ws();
        if (text[i] !== '"') fail('expected a key');
        const key = string();
        ws();
        if (text[i++] !== ':') fail('expected ":"');
        obj[key] = value();
        ws();
        if (text[i] === ',') {
          i++;
        } else if (text[i] === '}') {
          i++;
          return obj;
        } else {
          fail('expected "," or "}"');
        }
      }
    }
    if (c === '[') {
      i++;
      const arr = [];
      ws();
      if (text[i] === ']') {
        i++;
        return arr;
      }
      for (;;) {
        arr.push(value());
        ws();
        if (text[i] === ',') {
          i++;
        } else if (text[i] === ']') {
          i++;
          return arr;
        } else {
          fail('expected "," or "]"');
        }
      }
    }
    if (c === '"') return string();
    for (const [word, v] of [['true', true], ['false', false], ['null', null]]) {
      if (text.startsWith(word, i)) {
        i += word.length;
        return v;
      }
    }
    const m = /^-?(0|[1-9][0-9]*)(\.[0-9]+)?([eE][+-]?[0-9]+)?/.exec(text.slice(i, i + 400));
    if (m === null) fail('unexpected character');
    i += m[0].length;
    // The raw digits: BigInt for an integer, so nothing is rounded.
    return m[2] === undefined && m[3] === undefined ? BigInt(m[0]) : Number(m[0]);
  };
  const string = () => {
    const start = i++;
    while (text[i] !== '"') {
      if (i >= text.length) fail('unterminated string');
      i += text[i] === '\\' ? 2 : 1;
    }
    i++;
    return JSON.parse(text.slice(start, i));
  };
  const v = value();
  ws();
  if (i !== text.length) fail('trailing characters');
  return v;
}

// Writes a value as compact JSON: a BigInt as its digits, unquoted.
function writeJson(v) {
  if (typeof v === 'bigint') return v.toString();
  if (Array.isArray(v)) return `[${v.map(writeJson).join(',')}]`;
  if (v !== null && typeof v === 'object') {
    const parts = Object.entries(v).map(([k, x]) => `${JSON.stringify(k)}:${writeJson(x)}`);
    return `{${parts.join(',')}}`;
  }
  return JSON.stringify(v);
}

// ---------------------------------------------------------------------------
// Go's int64, and resource quantities.

const wrap64 = (x) => BigInt.asIntN(64, x); // Go's wrapping int64 arithmetic
const INT64_MAX = (1n << 63n) - 1n;
const INT64_MIN = -(1n << 63n);

const pow10 = (n) => 10n ** BigInt(n);
const int32 = (x) => Number(BigInt.asIntN(32, BigInt(x))); // Go's int32 wraps too

const SUFFIXES = {
  '': [10, 0], n: [10, -9], u: [10, -6], m: [10, -3], k: [10, 3], M: [10, 6],
  G: [10, 9], T: [10, 12], P: [10, 15], E: [10, 18],
  Ki: [2, 10], Mi: [2, 20], Gi: [2, 30], Ti: [2, 40], Pi: [2, 50], Ei: [2, 60],
};

// upstream: resource.ParseQuantity (apimachinery pkg/api/resource). A
// quantity is kept in one of two forms, and Value and MilliValue overflow
// differently for each (docs/FORMAT.md, "Quantities and requests"):
//   {int: value, scale}  an int64Amount, value * 10^scale: up to 18 digits;
//   {dec: nanos, scale}  an inf.Dec, rounded to nanos away from zero (scale
//                        9), or 2^63-1 at scale 0 for a capped binary amount.
// schedtrace has checked the grammar; a bare JSON number is read from its text.
function parseQuantity(q) {
  const s = typeof q === 'string' ? q : q.toString();
  const m = /^([+-]?)0*([0-9]*)(?:\.([0-9]*))?(.*)$/.exec(s);
  const negative = m[1] === '-';
  const num = m[2] === '' ? '0' : m[2]; // the scanner drops leading zeros
  const frac = m[3] || '';
  // A suffix, or a decimal exponent ("e3", "E-2"), which Go reads as an int32.
  const [base, exp] = SUFFIXES[m[4]] || [10, int32(BigInt(m[4].slice(1) || '0'))];
  const digits = BigInt(num + frac);
  if (digits === 0n) return { int: 0n, scale: 0 };
  // The int64Amount fast path (quantity.go, ParseQuantity).
  const scale = int32(exp - frac.length);
  const precision = base === 10 ? 18 - num.length - frac.length
    : frac === '' ? 15 - num.length - Math.floor((exp * 3) / 10) - 1 : -1;
  const mantissa = base === 10 ? 1n : 1n << BigInt(exp);
  if (precision >= 0 && scale >= -9 && digits * mantissa <= INT64_MAX) {
    return { int: negative ? -digits * mantissa : digits * mantissa, scale: base === 10 ? scale : 0 };
  }
  // The inf.Dec path: digits at scale len(frac) - exp, rounded to nanos.
  let mag = digits * (base === 2 ? mantissa : 1n);
  const decScale = base === 10 ? int32(frac.length - exp) : frac.length;
  if (decScale <= 9) {
    // Past 10^200 only the low 64 bits are ever read, and 10^n for n >= 64
    // is 0 modulo 2^64: such a quantity reads as 0.
    mag = 9 - decScale > 200 ? 0n : mag * pow10(9 - decScale);
    if (mag === 0n) return { int: 0n, scale: 0 };
  } else if (decScale - 9 > num.length + frac.length + 1) {
    mag = 1n; // less than a nano: rounds up to one
  } else {
    const d = pow10(decScale - 9);
    mag = mag / d + (mag % d === 0n ? 0n : 1n);
  }
  if (base === 2 && mag > INT64_MAX * pow10(9)) return { dec: negative ? -INT64_MAX : INT64_MAX, scale: 0 };
  return { dec: negative ? -mag : mag, scale: 9 };
}

// upstream: Quantity.ScaledValue: Value is unit 0, MilliValue unit -3.
// Positive fractions round up; what does not fit wraps as Go's int64 does.
function scaledValue(q, unit) {
  if (q.int !== undefined) {
    const d = q.scale - unit;
    if (d < 0) { // negativeScaleInt64: rounds away from zero
      const p = pow10(-d);
      return q.int / p + (q.int % p === 0n ? 0n : q.int > 0n ? 1n : -1n);
    }
    return positiveScaleInt64(q.int, d);
  }
  const u = q.dec;
  const dif = q.scale + unit;
  if (dif === 0) return wrap64(u);
  if (dif < 0) return wrap64(wrap64(u) * pow10(-dif));
  const p = pow10(dif);
  if (u < INT64_MAX && dif < 19) { // Go's int64 division, plus one when inexact
    const v = wrap64(u);
    return v / p + (v % p === 0n ? 0n : 1n);
  }
  const floor = u >= 0n || u % p === 0n ? u / p : u / p - 1n; // big.Int.Div floors
  return wrap64(wrap64(floor) + (u % p === 0n ? 0n : 1n));
}

// upstream: positiveScaleInt64 (math.go): base * 10^d. For d of 1, 2, 3, 6
// or 9 the product is taken at once and wraps; any other d multiplies by
// ten in a loop that gives 0 on the first overflow.
function positiveScaleInt64(v, d) {
  if (d === 0) return v;
  if ([1, 2, 3, 6, 9].includes(d)) return v === INT64_MIN ? 0n : wrap64(v * pow10(d));
  for (let i = 0; i < d; i++) {
    if (v === 0n) return 0n;
    v *= 10n;
    if (v > INT64_MAX || v < INT64_MIN) return 0n;
  }
  return v;
}

// upstream: validation.IsQualifiedName (apimachinery util/validation).
function isQualifiedName(value) {
  const parts = value.split('/');
  if (parts.length > 2) return false;
  const name = parts[parts.length - 1];
  if (parts.length === 2) {
    const prefix = parts[0];
    const label = /^[a-z0-9]([-a-z0-9]*[a-z0-9])?$/;
    if (prefix.length === 0 || prefix.length > 253) return false;
    if (!prefix.split('.').every((l) => label.test(l))) return false;
  }
  return name.length <= 63 && /^([A-Za-z0-9][-A-Za-z0-9_.]*)?[A-Za-z0-9]$/.test(name);
}

// upstream: schedutil.IsScalarResourceName (pkg/scheduler/util/utils.go):
// extended resources, hugepages-*, attachable-volumes-*, *kubernetes.io/*.
function isScalarResourceName(name) {
  const prefixedNative = name.includes('kubernetes.io/');
  const native = !name.includes('/') || prefixedNative;
  const extended = !native && !name.startsWith('requests.') && isQualifiedName(`requests.${name}`);
  return extended || name.startsWith('hugepages-') || prefixedNative ||
    name.startsWith('attachable-volumes-');
}

// The amount a NodeInfo counts for one resource, or null for a name it
// ignores ("pods" is counted by the pod but never added to `requested`).
function amount(name, quantity) {
  if (name === 'cpu') return scaledValue(parseQuantity(quantity), -3);
  if (name === 'memory' || name === 'ephemeral-storage' || isScalarResourceName(name)) {
    return scaledValue(parseQuantity(quantity), 0);
  }
  return null;
}

// upstream: calculateResource (framework/types.go), v1.26.7: each quantity
// rounded on its own, the containers' amounts added (wrapping int64), each
// raised to the largest init container's (never below 0), plus overhead.
function calculateResource(pod) {
  const res = new Map();
  const addList = (list) => {
    for (const [name, q] of Object.entries(list || {})) {
      const a = amount(name, q);
      if (a !== null) res.set(name, wrap64((res.get(name) || 0n) + a));
    }
  };
  const spec = pod.spec || {};
  for (const c of spec.containers || []) addList((c.resources || {}).requests);
  for (const c of spec.initContainers || []) { // Resource.SetMaxResource
    for (const [name, q] of Object.entries((c.resources || {}).requests || {})) {
      const a = amount(name, q);
      const have = res.get(name) || 0n;
      if (a !== null && a > have) res.set(name, a);
    }
  }
  addList(spec.overhead);
  return res;
}

// ---------------------------------------------------------------------------
// The cache.

class UpstreamError extends Error {} // an error the upstream call returns
class Fatal extends Error {} // upstream panics or calls klog.FlushAndExit

const uidOf = (pod) => (pod.metadata || {}).uid || '';
const keyOf = (pod) => `${(pod.metadata || {}).namespace || ''}/${(pod.metadata || {}).name || ''}`;
const nodeNameOf = (pod) => (pod.spec || {}).nodeName || '';

// upstream: framework.GetPodKey (framework/types.go): pods are keyed by uid.
function getPodKey(pod) {
  const uid = uidOf(pod);
  if (uid === '') throw new UpstreamError('cannot get cache key for pod with empty UID');
  return uid;
}

// upstream: GetZoneKey (component-helpers/node/topology/helpers.go).
function getZoneKey(node) {
  const labels = (node.metadata || {}).labels || {};
  // The beta label when present (even empty), else the GA one.
  const label = (beta, ga) => labels[beta] ?? labels[ga] ?? '';
  const zone = label('failure-domain.beta.kubernetes.io/zone', 'topology.kubernetes.io/zone');
  const region = label('failure-domain.beta.kubernetes.io/region', 'topology.kubernetes.io/region');
  return region === '' && zone === '' ? '' : `${region}:\x00:${zone}`;
}

// upstream: framework.NodeInfo (framework/types.go), what the snapshot shows.
class NodeInfo {
  constructor() {
    this.node = null; // null: a placeholder (pods arrived, node absent or deleted)
    this.pods = [];
    this.requested = new Map();
  }

  // upstream: NodeInfo.AddPod / NodeInfo.update(pod, +1).
  addPod(pod) {
    this.pods.push(pod);
    this.update(pod, 1n);
  }

  // upstream: NodeInfo.RemovePod: found by uid; subtracts the requests of
  // the object it is given (not the stored one: that is v1.33+).
  removePod(pod) {
    const uid = getPodKey(pod);
    const i = this.pods.findIndex((p) => uidOf(p) === uid);
    if (i >= 0) {
      this.pods.splice(i, 1);
      this.update(pod, -1n);
      return;
    }
    // Building the error dereferences n.node: a panic on a placeholder.
    if (this.node === null) throw new Fatal(`NodeInfo.RemovePod: no pod ${uid} on a placeholder`);
    throw new UpstreamError(`no corresponding pod in pods of node ${this.node.metadata.name}`);
  }

  update(pod, sign) {
    for (const [name, a] of calculateResource(pod)) {
      this.requested.set(name, wrap64((this.requested.get(name) || 0n) + wrap64(sign * a)));
    }
  }
}

class Cache {
  // upstream: newCache(ttl, ...): ttl is time.Duration(ms) * time.Millisecond,
  // int64 nanoseconds that wrap (a huge ttl becomes negative).
  constructor(ttlMs) {
    this.ttlNs = wrap64(ttlMs * 1000000n);
    this.podStates = new Map(); // uid -> {pod, deadlineNs, bindingFinished}
    this.assumedPods = new Set(); // uids
    this.nodes = new Map(); // node name -> NodeInfo
    this.nodeTree = new Map(); // zone key -> node names (upstream's nodeTree)
  }

  // upstream: cacheImpl.AssumePod
  AssumePod(pod) {
    const key = getPodKey(pod);
    if (this.podStates.has(key)) throw new UpstreamError(`pod ${key} is in the cache, so can't be assumed`);
    this.addPod(pod, true);
  }

  // upstream: cacheImpl.FinishBinding -> finishBinding(pod, now). Deadlines
  // are exact nanoseconds, like Go's time.Time: a BigInt.
  FinishBinding(pod, nowMs) {
    const key = getPodKey(pod);
    const state = this.podStates.get(key);
    if (state !== undefined && this.assumedPods.has(key)) {
      state.deadlineNs = this.ttlNs === 0n ? null : nowMs * 1000000n + this.ttlNs;
      state.bindingFinished = true;
    }
  }

  // upstream: cacheImpl.ForgetPod
  ForgetPod(pod) {
    const key = getPodKey(pod);
    const state = this.podStates.get(key);
    if (state !== undefined && nodeNameOf(state.pod) !== nodeNameOf(pod)) {
      const [assumed, assigned] = [nodeNameOf(pod), nodeNameOf(state.pod)];
      throw new UpstreamError(`pod ${key} was assumed on ${assumed} but assigned to ${assigned}`);
    }
    if (state !== undefined && this.assumedPods.has(key)) return this.removePod(pod);
    throw new UpstreamError(`pod ${key} wasn't assumed so cannot be forgotten`);
  }

  // upstream: cacheImpl.addPod: a missing NodeInfo is created (a placeholder).
  addPod(pod, assumePod) {
    const key = getPodKey(pod);
    const name = nodeNameOf(pod);
    if (!this.nodes.has(name)) this.nodes.set(name, new NodeInfo());
    this.nodes.get(name).addPod(pod);
    this.podStates.set(key, { pod, deadlineNs: null, bindingFinished: false });
    if (assumePod) this.assumedPods.add(key);
  }

  // upstream: cacheImpl.updatePod
  updatePod(oldPod, newPod) {
    this.removePod(oldPod);
    this.addPod(newPod, false);
  }

  // upstream: cacheImpl.removePod: a missing NodeInfo is only logged.
  removePod(pod) {
    const key = getPodKey(pod);
    const name = nodeNameOf(pod);
    const n = this.nodes.get(name);
    if (n !== undefined) {
      n.removePod(pod);
      if (n.pods.length === 0 && n.node === null) this.nodes.delete(name);
    }
    this.podStates.delete(key);
    this.assumedPods.delete(key);
  }

  // upstream: cacheImpl.AddPod: confirms an assumed pod (its state is made
  // anew: no longer assumed, binding not finished), adds back an expired one.
  AddPod(pod) {
    const key = getPodKey(pod);
    const state = this.podStates.get(key);
    if (state !== undefined && this.assumedPods.has(key)) {
      logged(() => this.updatePod(state.pod, pod)); // "Error occurred while updating pod"
    } else if (state === undefined) {
      logged(() => this.addPod(pod, false)); // "Error occurred while adding pod"
    } else {
      throw new UpstreamError(`pod ${key} was already in added state`);
    }
  }

  // upstream: cacheImpl.UpdatePod: only an added (not assumed) pod.
  UpdatePod(oldPod, newPod) {
    const key = getPodKey(oldPod);
    const state = this.podStates.get(key);
    if (state !== undefined && !this.assumedPods.has(key)) {
      if (nodeNameOf(state.pod) !== nodeNameOf(newPod)) {
        throw new Fatal('pod updated on a different node than previously added to (klog.FlushAndExit)');
      }
      return this.updatePod(oldPod, newPod);
    }
    throw new UpstreamError(`pod ${key} is not added to scheduler cache, so cannot be updated`);
  }

  // upstream: cacheImpl.RemovePod: removes the cached object. An empty node
  // name (an informer's last known state) is tolerated; another is fatal.
  RemovePod(pod) {
    const key = getPodKey(pod);
    const state = this.podStates.get(key);
    if (state === undefined) throw new UpstreamError(`pod ${key} is not found in scheduler cache`);
    if (nodeNameOf(state.pod) !== nodeNameOf(pod) && nodeNameOf(pod) !== '') {
      throw new Fatal('pod was added to a different node than it was assumed (klog.FlushAndExit)');
    }
    this.removePod(state.pod);
  }

  // upstream: cacheImpl.AddNode
  AddNode(node) {
    const name = node.metadata.name;
    if (!this.nodes.has(name)) this.nodes.set(name, new NodeInfo());
    this.treeAdd(node);
    this.nodes.get(name).node = node;
  }

  // upstream: cacheImpl.UpdateNode
  UpdateNode(oldNode, newNode) {
    const name = newNode.metadata.name;
    if (!this.nodes.has(name)) {
      this.nodes.set(name, new NodeInfo());
      this.treeAdd(newNode);
    }
    // upstream: nodeTree.updateNode: a zone change moves the node.
    if (getZoneKey(oldNode) !== getZoneKey(newNode)) {
      logged(() => this.treeRemove(oldNode));
      this.treeAdd(newNode);
    }
    this.nodes.get(name).node = newNode;
  }

  // upstream: cacheImpl.RemoveNode: the NodeInfo stays, as a placeholder,
  // while pods remain. The node tree looks the node up under the zone of the
  // object given: another zone than it was added with is an error (after
  // the NodeInfo has lost its node all the same).
  RemoveNode(node) {
    const name = node.metadata.name;
    const n = this.nodes.get(name);
    if (n === undefined) throw new UpstreamError(`node ${name} is not found`);
    n.node = null;
    if (n.pods.length === 0) this.nodes.delete(name);
    this.treeRemove(node);
  }

  // upstream: nodeTree.addNode (node_tree.go)
  treeAdd(node) {
    const zone = getZoneKey(node);
    const names = this.nodeTree.get(zone) || [];
    if (!names.includes(node.metadata.name)) names.push(node.metadata.name);
    this.nodeTree.set(zone, names);
  }

  // upstream: nodeTree.removeNode (node_tree.go)
  treeRemove(node) {
    const zone = getZoneKey(node);
    const names = this.nodeTree.get(zone) || [];
    const i = names.indexOf(node.metadata.name);
    if (i < 0) throw new UpstreamError(`node "${node.metadata.name}" in group "${zone}" was not found`);
    names.splice(i, 1);
    if (names.length === 0) this.nodeTree.delete(zone);
  }

  // upstream: cacheImpl.cleanupAssumedPods(now): an assumed pod whose
  // binding finished expires strictly after its deadline. BigInt compares
  // exactly: at t near 2^62 ms, a double could not tell the two apart.
  cleanupAssumedPods(nowMs) {
    const nowNs = nowMs * 1000000n;
    for (const key of [...this.assumedPods]) {
      const state = this.podStates.get(key);
      if (state === undefined) throw new Fatal('key found in assumed set but not in podStates');
      if (!state.bindingFinished) continue;
      if (this.ttlNs !== 0n && nowNs > state.deadlineNs) {
        logged(() => this.removePod(state.pod)); // "ExpirePod failed"
      }
    }
  }

  // The `cache` part of the snapshot (docs/FORMAT.md, "The state snapshot").
  snapshot() {
    const nodes = [...this.nodes.keys()].sort(byBytes).map((name) => {
      const n = this.nodes.get(name);
      const requested = {};
      for (const r of [...n.requested.keys()].sort(byBytes)) {
        if (n.requested.get(r) !== 0n) requested[r] = n.requested.get(r);
      }
      return { name, present: n.node !== null, pods: n.pods.map(keyOf).sort(byBytes), requested };
    });
    const states = [...this.podStates.entries()];
    return {
      nodes,
      assumed: states.filter(([uid]) => this.assumedPods.has(uid)).map(([, s]) => keyOf(s.pod)).sort(byBytes),
      bindingFinished: states.filter(([, s]) => s.bindingFinished).map(([, s]) => keyOf(s.pod)).sort(byBytes),
    };
  }
}

// Sorted by key as schedtrace sorts: byte by byte (UTF-8).
function byBytes(a, b) {
  return Buffer.compare(Buffer.from(a), Buffer.from(b));
}

// An upstream error that upstream only logs; anything else goes on.
function logged(f) {
  try {
    f();
  } catch (e) {
    if (!(e instanceof UpstreamError)) throw e;
    process.stderr.write(`logged: ${e.message}\n`);
  }
}

// ---------------------------------------------------------------------------
// The protocol (docs/FORMAT.md, "Child-process protocol").

const VERSION = 'v1.26.7';
let cache = null;

function onHeader(h) {
  const declared = { layers: ['cache'], upstream: VERSION };
  if (h.layer !== 'cache' || (h.upstream || VERSION) !== VERSION) {
    return { ok: false, error: `only the cache layer of ${VERSION}`, ...declared };
  }
  cache = new Cache((h.config || {}).assumedPodTtlMs ?? 0n);
  return { ok: true, ...declared };
}

function onStep(s) {
  const call = {
    c_assume: () => cache.AssumePod(s.pod),
    c_finish_binding: () => cache.FinishBinding(s.pod, s.t),
    c_forget: () => cache.ForgetPod(s.pod),
    c_add_pod: () => cache.AddPod(s.pod),
    c_update_pod: () => cache.UpdatePod(s.old, s.new),
    c_remove_pod: () => cache.RemovePod(s.pod),
    c_add_node: () => cache.AddNode(s.node),
    c_update_node: () => cache.UpdateNode(s.old, s.new),
    c_remove_node: () => cache.RemoveNode(s.node),
    c_cleanup: () => cache.cleanupAssumedPods(s.t),
  }[s.op];
  if (call === undefined) return { ok: false, error: `op ${s.op} is not a cache op` };
  const out = {};
  try {
    call();
  } catch (e) {
    if (e instanceof Fatal) return { out: { fatal: true } }; // the trace ends here
    if (!(e instanceof UpstreamError)) throw e;
    out.error = true;
  }
  return { out, state: { cache: cache.snapshot() } };
}

let header = true;
readline.createInterface({ input: process.stdin }).on('line', (line) => {
  const msg = parseJson(line);
  const reply = header ? onHeader(msg) : onStep(msg);
  header = false;
  // Writes to a pipe are synchronous in Node on Linux: nothing to flush.
  process.stdout.write(`${writeJson(reply)}\n`);
});
