#!/usr/bin/env python3
"""A schedtrace adapter for the cache layer, in Python 3 (standard library
only): upstream kube-scheduler v1.26.7's scheduler cache
(pkg/scheduler/internal/cache/cache.go), written from docs/ADAPTERS.md and
docs/FORMAT.md. Run it as

  schedtrace conformance --sut="exec:python3 docs/examples/cache_adapter.py" --layer=cache

Integers. The trace's clock `t` goes up to 2^62 ms, an assumed pod's
deadline is `t` in nanoseconds plus a ttl, and a node's `requested` amounts
are int64s that may wrap. Python's json module reads and writes integers
exactly (int is unbounded), so nothing here is a float: no float(), no `/`
(only `//`), no math.ceil. Python's ints never wrap, so where Go's int64
wraps this file wraps explicitly (wrap64).
"""

import json
import sys

# ---------------------------------------------------------------------------
# Go's int64, and resource quantities.

INT64_MAX = (1 << 63) - 1
INT64_MIN = -(1 << 63)


def wrap64(x):
    """Go's wrapping int64 arithmetic."""
    return (x + (1 << 63)) % (1 << 64) - (1 << 63)


def int32(x):
    """Go's wrapping int32."""
    return (x + (1 << 31)) % (1 << 32) - (1 << 31)


def trunc_div(a, b):
    """Go's integer division, which truncates toward zero (Python's // floors)."""
    q = abs(a) // abs(b)
    return q if (a < 0) == (b < 0) else -q


def trunc_rem(a, b):
    return a - b * trunc_div(a, b)


SUFFIXES = {
    "": (10, 0), "n": (10, -9), "u": (10, -6), "m": (10, -3), "k": (10, 3),
    "M": (10, 6), "G": (10, 9), "T": (10, 12), "P": (10, 15), "E": (10, 18),
    "Ki": (2, 10), "Mi": (2, 20), "Gi": (2, 30), "Ti": (2, 40), "Pi": (2, 50),
    "Ei": (2, 60),
}


def parse_quantity(q):
    """upstream: resource.ParseQuantity (apimachinery pkg/api/resource).

    A quantity is kept in one of two forms, and Value and MilliValue
    overflow differently for each (docs/FORMAT.md, "Quantities and
    requests"):
      ("int", value, scale)  an int64Amount, value * 10^scale: up to 18 digits;
      ("dec", nanos, scale)  an inf.Dec, rounded to nanos away from zero
                             (scale 9), or 2^63-1 at scale 0 for a capped
                             binary amount.
    schedtrace has checked the grammar; a bare JSON number is read as text.
    """
    s = q if isinstance(q, str) else json.dumps(q)
    negative = s.startswith("-")
    body = s.lstrip("+-")
    i = 0
    while i < len(body) and (body[i].isdigit() or body[i] == "."):
        i += 1
    number, suffix = body[:i], body[i:]
    whole, _, frac = number.partition(".")
    whole = whole.lstrip("0") or "0"  # the scanner drops leading zeros
    if suffix in SUFFIXES:
        base, exp = SUFFIXES[suffix]
    else:  # a decimal exponent, "e3" or "E-2"
        base, exp = 10, int32(int(suffix[1:] or "0"))
    digits = int(whole + frac)
    if digits == 0:
        return ("int", 0, 0)
    # The int64Amount fast path (quantity.go, ParseQuantity).
    scale = int32(exp - len(frac))
    if base == 10:
        precision = 18 - len(whole) - len(frac)
        mantissa = 1
    else:
        precision = 15 - len(whole) - exp * 3 // 10 - 1 if frac == "" else -1
        mantissa = 1 << exp
    if precision >= 0 and scale >= -9 and digits * mantissa <= INT64_MAX:
        value = digits * mantissa
        return ("int", -value if negative else value, scale if base == 10 else 0)
    # The inf.Dec path: digits at scale len(frac) - exp, rounded to nanos.
    mag = digits * mantissa
    dec_scale = int32(len(frac) - exp) if base == 10 else len(frac)
    if dec_scale <= 9:
        # Past 10^200 only the low 64 bits are ever read, and 10^n for
        # n >= 64 is 0 modulo 2^64: such a quantity reads as 0.
        if 9 - dec_scale > 200:
            return ("int", 0, 0)
        mag *= 10 ** (9 - dec_scale)
    elif dec_scale - 9 > len(whole) + len(frac) + 1:
        mag = 1  # less than a nano: rounds up to one
    else:
        mag = -(-mag // 10 ** (dec_scale - 9))  # ceiling division
    if base == 2 and mag > INT64_MAX * 10**9:
        return ("dec", -INT64_MAX if negative else INT64_MAX, 0)
    return ("dec", -mag if negative else mag, 9)


def scaled_value(q, unit):
    """upstream: Quantity.ScaledValue: Value is unit 0, MilliValue unit -3.

    Positive fractions round up; what does not fit wraps as Go's int64 does.
    """
    form, u, scale = q
    if form == "int":
        d = scale - unit
        if d < 0:  # negativeScaleInt64: rounds away from zero
            p = 10 ** (-d)
            r = trunc_div(u, p)
            if trunc_rem(u, p) != 0:
                r += 1 if u > 0 else -1
            return r
        return positive_scale_int64(u, d)
    dif = scale + unit
    if dif == 0:
        return wrap64(u)
    if dif < 0:
        return wrap64(wrap64(u) * 10 ** (-dif))
    p = 10**dif
    if u < INT64_MAX and dif < 19:  # Go's int64 division, plus one
        v = wrap64(u)
        return trunc_div(v, p) + (1 if trunc_rem(v, p) != 0 else 0)
    # big.Int.Div floors (for a positive divisor), as Python's // does.
    return wrap64(wrap64(u // p) + (1 if u % p != 0 else 0))


def positive_scale_int64(v, d):
    """upstream: positiveScaleInt64 (math.go): v * 10^d.

    For d of 1, 2, 3, 6 or 9 the product is taken at once and wraps; any
    other d multiplies by ten in a loop that gives 0 on the first overflow.
    """
    if d == 0:
        return v
    if d in (1, 2, 3, 6, 9):
        return 0 if v == INT64_MIN else wrap64(v * 10**d)
    for _ in range(d):
        if v == 0:
            return 0
        v *= 10
        if not INT64_MIN <= v <= INT64_MAX:
            return 0
    return v


def is_qualified_name(value):
    """upstream: validation.IsQualifiedName (apimachinery util/validation)."""
    parts = value.split("/")
    if len(parts) > 2:
        return False
    name = parts[-1]
    if len(parts) == 2:
        prefix = parts[0]
        if not 0 < len(prefix) <= 253:
            return False
        for label in prefix.split("."):
            ok = label != "" and all(c.isascii() and (c.islower() or c.isdigit() or c == "-") for c in label)
            if not ok or label[0] == "-" or label[-1] == "-":
                return False
    alnum = lambda c: c.isascii() and c.isalnum()  # noqa: E731
    return (0 < len(name) <= 63 and alnum(name[0]) and alnum(name[-1])
            and all(alnum(c) or c in "-_." for c in name))


def is_scalar_resource_name(name):
    """upstream: schedutil.IsScalarResourceName (pkg/scheduler/util/utils.go):
    extended resources, hugepages-*, attachable-volumes-*, *kubernetes.io/*."""
    prefixed_native = "kubernetes.io/" in name
    native = "/" not in name or prefixed_native
    extended = (not native and not name.startswith("requests.")
                and is_qualified_name("requests." + name))
    return (extended or name.startswith("hugepages-") or prefixed_native
            or name.startswith("attachable-volumes-"))


def amount(name, quantity):
    """The amount a NodeInfo counts for one resource, or None for a name it
    ignores ("pods" is counted by the pod but never added to `requested`)."""
    if name == "cpu":
        return scaled_value(parse_quantity(quantity), -3)
    if name in ("memory", "ephemeral-storage") or is_scalar_resource_name(name):
        return scaled_value(parse_quantity(quantity), 0)
    return None


def calculate_resource(pod):
    """upstream: calculateResource (framework/types.go), v1.26.7: each
    quantity rounded on its own, the containers' amounts added (wrapping
    int64), each raised to the largest init container's (never below 0),
    plus overhead."""
    res = {}
    spec = pod.get("spec") or {}

    def add_list(lst):
        for name, q in (lst or {}).items():
            a = amount(name, q)
            if a is not None:
                res[name] = wrap64(res.get(name, 0) + a)

    for c in spec.get("containers") or []:
        add_list((c.get("resources") or {}).get("requests"))
    for c in spec.get("initContainers") or []:  # Resource.SetMaxResource
        for name, q in ((c.get("resources") or {}).get("requests") or {}).items():
            a = amount(name, q)
            if a is not None and a > res.get(name, 0):
                res[name] = a
    add_list(spec.get("overhead"))
    return res


# ---------------------------------------------------------------------------
# The cache.


class UpstreamError(Exception):
    """An error the upstream call returns."""


class Fatal(Exception):
    """Upstream panics or calls klog.FlushAndExit."""


def uid_of(pod):
    return (pod.get("metadata") or {}).get("uid") or ""


def key_of(pod):
    meta = pod.get("metadata") or {}
    return "%s/%s" % (meta.get("namespace") or "", meta.get("name") or "")


def node_name_of(pod):
    return (pod.get("spec") or {}).get("nodeName") or ""


def get_pod_key(pod):
    """upstream: framework.GetPodKey (framework/types.go): pods are keyed by uid."""
    uid = uid_of(pod)
    if uid == "":
        raise UpstreamError("cannot get cache key for pod with empty UID")
    return uid


def get_zone_key(node):
    """upstream: GetZoneKey (component-helpers/node/topology/helpers.go)."""
    labels = (node.get("metadata") or {}).get("labels") or {}

    def label(a, b):
        return labels[a] if a in labels else labels.get(b, "")

    zone = label("failure-domain.beta.kubernetes.io/zone", "topology.kubernetes.io/zone")
    region = label("failure-domain.beta.kubernetes.io/region", "topology.kubernetes.io/region")
    return "" if region == "" and zone == "" else region + ":\x00:" + zone


def logged(f):
    """An upstream error that upstream only logs; anything else goes on."""
    try:
        f()
    except UpstreamError as e:
        print("logged:", e, file=sys.stderr)


class NodeInfo:
    """upstream: framework.NodeInfo (framework/types.go), what the snapshot shows."""

    def __init__(self):
        self.node = None  # None: a placeholder (pods arrived, node absent or deleted)
        self.pods = []
        self.requested = {}

    def add_pod(self, pod):
        """upstream: NodeInfo.AddPod / NodeInfo.update(pod, +1)."""
        self.pods.append(pod)
        self.update(pod, 1)

    def remove_pod(self, pod):
        """upstream: NodeInfo.RemovePod: found by uid; subtracts the requests
        of the object it is given (not the stored one: that is v1.33+)."""
        uid = get_pod_key(pod)
        for i, p in enumerate(self.pods):
            if uid_of(p) == uid:
                del self.pods[i]
                self.update(pod, -1)
                return
        # Building the error dereferences n.node: a panic on a placeholder.
        if self.node is None:
            raise Fatal("NodeInfo.RemovePod: no pod %s on a placeholder" % uid)
        raise UpstreamError("no corresponding pod in pods of node " + self.node["metadata"]["name"])

    def update(self, pod, sign):
        for name, a in calculate_resource(pod).items():
            self.requested[name] = wrap64(self.requested.get(name, 0) + wrap64(sign * a))


class Cache:
    def __init__(self, ttl_ms):
        # upstream: newCache(ttl, ...): ttl is time.Duration(ms) *
        # time.Millisecond, int64 nanoseconds that wrap (a huge ttl becomes
        # negative).
        self.ttl_ns = wrap64(ttl_ms * 1000000)
        self.pod_states = {}  # uid -> {"pod", "deadline_ns", "binding_finished"}
        self.assumed_pods = set()  # uids
        self.nodes = {}  # node name -> NodeInfo
        self.node_tree = {}  # zone key -> node names (upstream's nodeTree)

    def AssumePod(self, pod):
        """upstream: cacheImpl.AssumePod"""
        key = get_pod_key(pod)
        if key in self.pod_states:
            raise UpstreamError("pod %s is in the cache, so can't be assumed" % key)
        self.add_pod(pod, True)

    def FinishBinding(self, pod, now_ms):
        """upstream: cacheImpl.FinishBinding -> finishBinding(pod, now).
        Deadlines are exact nanoseconds, like Go's time.Time."""
        key = get_pod_key(pod)
        state = self.pod_states.get(key)
        if state is not None and key in self.assumed_pods:
            state["deadline_ns"] = None if self.ttl_ns == 0 else now_ms * 1000000 + self.ttl_ns
            state["binding_finished"] = True

    def ForgetPod(self, pod):
        """upstream: cacheImpl.ForgetPod"""
        key = get_pod_key(pod)
        state = self.pod_states.get(key)
        if state is not None and node_name_of(state["pod"]) != node_name_of(pod):
            raise UpstreamError("pod %s was assumed on %s but assigned to %s"
                                % (key, node_name_of(pod), node_name_of(state["pod"])))
        if state is not None and key in self.assumed_pods:
            return self.remove_pod(pod)
        raise UpstreamError("pod %s wasn't assumed so cannot be forgotten" % key)

    def add_pod(self, pod, assume_pod):
        """upstream: cacheImpl.addPod: a missing NodeInfo is created (a placeholder)."""
        key = get_pod_key(pod)
        self.nodes.setdefault(node_name_of(pod), NodeInfo()).add_pod(pod)
        self.pod_states[key] = {"pod": pod, "deadline_ns": None, "binding_finished": False}
        if assume_pod:
            self.assumed_pods.add(key)

    def update_pod(self, old_pod, new_pod):
        """upstream: cacheImpl.updatePod"""
        self.remove_pod(old_pod)
        self.add_pod(new_pod, False)

    def remove_pod(self, pod):
        """upstream: cacheImpl.removePod: a missing NodeInfo is only logged."""
        key = get_pod_key(pod)
        name = node_name_of(pod)
        n = self.nodes.get(name)
        if n is not None:
            n.remove_pod(pod)
            if not n.pods and n.node is None:
                del self.nodes[name]
        self.pod_states.pop(key, None)
        self.assumed_pods.discard(key)

    def AddPod(self, pod):
        """upstream: cacheImpl.AddPod: confirms an assumed pod (its state is
        made anew: no longer assumed, binding not finished), adds back an
        expired one."""
        key = get_pod_key(pod)
        state = self.pod_states.get(key)
        if state is not None and key in self.assumed_pods:
            logged(lambda: self.update_pod(state["pod"], pod))  # "Error occurred while updating pod"
        elif state is None:
            logged(lambda: self.add_pod(pod, False))  # "Error occurred while adding pod"
        else:
            raise UpstreamError("pod %s was already in added state" % key)

    def UpdatePod(self, old_pod, new_pod):
        """upstream: cacheImpl.UpdatePod: only an added (not assumed) pod."""
        key = get_pod_key(old_pod)
        state = self.pod_states.get(key)
        if state is not None and key not in self.assumed_pods:
            if node_name_of(state["pod"]) != node_name_of(new_pod):
                raise Fatal("pod updated on a different node than previously added to")
            return self.update_pod(old_pod, new_pod)
        raise UpstreamError("pod %s is not added to scheduler cache, so cannot be updated" % key)

    def RemovePod(self, pod):
        """upstream: cacheImpl.RemovePod: removes the cached object. An empty
        node name (an informer's last known state) is tolerated; another is
        fatal."""
        key = get_pod_key(pod)
        state = self.pod_states.get(key)
        if state is None:
            raise UpstreamError("pod %s is not found in scheduler cache" % key)
        if node_name_of(state["pod"]) != node_name_of(pod) and node_name_of(pod) != "":
            raise Fatal("pod was added to a different node than it was assumed")
        self.remove_pod(state["pod"])

    def AddNode(self, node):
        """upstream: cacheImpl.AddNode"""
        n = self.nodes.setdefault(node["metadata"]["name"], NodeInfo())
        self.tree_add(node)
        n.node = node

    def UpdateNode(self, old_node, new_node):
        """upstream: cacheImpl.UpdateNode"""
        name = new_node["metadata"]["name"]
        if name not in self.nodes:
            self.nodes[name] = NodeInfo()
            self.tree_add(new_node)
        # upstream: nodeTree.updateNode: a zone change moves the node.
        if get_zone_key(old_node) != get_zone_key(new_node):
            logged(lambda: self.tree_remove(old_node))
            self.tree_add(new_node)
        self.nodes[name].node = new_node

    def RemoveNode(self, node):
        """upstream: cacheImpl.RemoveNode: the NodeInfo stays, as a
        placeholder, while pods remain. The node tree looks the node up under
        the zone of the object given: another zone than it was added with is
        an error (after the NodeInfo has lost its node all the same)."""
        name = node["metadata"]["name"]
        n = self.nodes.get(name)
        if n is None:
            raise UpstreamError("node %s is not found" % name)
        n.node = None
        if not n.pods:
            del self.nodes[name]
        self.tree_remove(node)

    def tree_add(self, node):
        """upstream: nodeTree.addNode (node_tree.go)"""
        names = self.node_tree.setdefault(get_zone_key(node), [])
        if node["metadata"]["name"] not in names:
            names.append(node["metadata"]["name"])

    def tree_remove(self, node):
        """upstream: nodeTree.removeNode (node_tree.go)"""
        zone = get_zone_key(node)
        names = self.node_tree.get(zone, [])
        if node["metadata"]["name"] not in names:
            raise UpstreamError('node "%s" in group "%s" was not found' % (node["metadata"]["name"], zone))
        names.remove(node["metadata"]["name"])
        if not names:
            del self.node_tree[zone]

    def cleanupAssumedPods(self, now_ms):
        """upstream: cacheImpl.cleanupAssumedPods(now): an assumed pod whose
        binding finished expires strictly after its deadline."""
        now_ns = now_ms * 1000000
        for key in list(self.assumed_pods):
            state = self.pod_states.get(key)
            if state is None:
                raise Fatal("key found in assumed set but not in podStates")
            if not state["binding_finished"]:
                continue
            if self.ttl_ns != 0 and now_ns > state["deadline_ns"]:
                logged(lambda: self.remove_pod(state["pod"]))  # "ExpirePod failed"

    def snapshot(self):
        """The `cache` part of the snapshot (docs/FORMAT.md, "The state
        snapshot"), every list sorted as schedtrace sorts: by UTF-8 bytes."""
        by_bytes = lambda s: s.encode()  # noqa: E731
        nodes = []
        for name in sorted(self.nodes, key=by_bytes):
            n = self.nodes[name]
            requested = {r: v for r, v in n.requested.items() if v != 0}
            nodes.append({"name": name, "present": n.node is not None,
                          "pods": sorted((key_of(p) for p in n.pods), key=by_bytes),
                          "requested": requested})
        assumed = [key_of(s["pod"]) for uid, s in self.pod_states.items() if uid in self.assumed_pods]
        finished = [key_of(s["pod"]) for s in self.pod_states.values() if s["binding_finished"]]
        return {"nodes": nodes, "assumed": sorted(assumed, key=by_bytes),
                "bindingFinished": sorted(finished, key=by_bytes)}


# ---------------------------------------------------------------------------
# The protocol (docs/FORMAT.md, "Child-process protocol").

VERSION = "v1.26.7"


def on_header(h):
    """The header reply, and the cache for the trace (None when refused)."""
    declared = {"layers": ["cache"], "upstream": VERSION}
    if h.get("layer") != "cache" or (h.get("upstream") or VERSION) != VERSION:
        return {"ok": False, "error": "only the cache layer of " + VERSION, **declared}, None
    return {"ok": True, **declared}, Cache((h.get("config") or {}).get("assumedPodTtlMs") or 0)


def on_step(cache, s):
    calls = {
        "c_assume": lambda: cache.AssumePod(s["pod"]),
        "c_finish_binding": lambda: cache.FinishBinding(s["pod"], s["t"]),
        "c_forget": lambda: cache.ForgetPod(s["pod"]),
        "c_add_pod": lambda: cache.AddPod(s["pod"]),
        "c_update_pod": lambda: cache.UpdatePod(s["old"], s["new"]),
        "c_remove_pod": lambda: cache.RemovePod(s["pod"]),
        "c_add_node": lambda: cache.AddNode(s["node"]),
        "c_update_node": lambda: cache.UpdateNode(s["old"], s["new"]),
        "c_remove_node": lambda: cache.RemoveNode(s["node"]),
        "c_cleanup": lambda: cache.cleanupAssumedPods(s["t"]),
    }
    if s.get("op") not in calls:
        return {"ok": False, "error": "op %s is not a cache op" % s.get("op")}
    out = {}
    try:
        calls[s["op"]]()
    except Fatal:
        return {"out": {"fatal": True}}  # the trace ends here
    except UpstreamError:
        out["error"] = True
    return {"out": out, "state": {"cache": cache.snapshot()}}


def main():
    cache = None
    for n, line in enumerate(sys.stdin):
        msg = json.loads(line)  # integers come back as exact Python ints
        if n == 0:
            reply, cache = on_header(msg)
        else:
            reply = on_step(cache, msg)
        sys.stdout.write(json.dumps(reply, separators=(",", ":")) + "\n")
        sys.stdout.flush()  # an unflushed reply looks like a hang


if __name__ == "__main__":
    main()
