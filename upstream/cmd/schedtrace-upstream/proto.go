package main

// The child-process protocol of docs/FORMAT.md ("Child-process protocol"):
// the header and step lines schedtrace writes, decoded into Go values, and the
// replies written back. Pods and nodes are decoded by encoding/json into the
// real v1.Pod and v1.Node of the version being built, so quantities, times and
// empty-against-absent fields are read exactly as upstream's own decoder reads
// them.

import (
	"bytes"
	"encoding/json"
	"fmt"
	"strings"

	v1 "k8s.io/api/core/v1"
)

// eventMapEntry is one entry of config.clusterEventMap.
type eventMapEntry struct {
	Resource string   `json:"resource"`
	Actions  []string `json:"actions"`
	Plugins  []string `json:"plugins"`
	// Hint is what the hint function of each plugin answers (from v1.35):
	// "" or "Queue", "QueueSkip", "Error", or "plugin" (the plugin's own).
	Hint string `json:"hint"`
}

// config is a header's config, with schedtrace's defaults filled in by the
// writer (a child always receives every key of the defaults table).
type config struct {
	PodInitialBackoffMs     int64               `json:"podInitialBackoffMs"`
	PodMaxBackoffMs         int64               `json:"podMaxBackoffMs"`
	PodMaxInUnschedulableMs int64               `json:"podMaxInUnschedulableMs"`
	AssumedPodTTLMs         int64               `json:"assumedPodTtlMs"`
	Profiles                []string            `json:"profiles"`
	Features                map[string]bool     `json:"features"`
	ClusterEventMap         []eventMapEntry     `json:"clusterEventMap"`
	PreEnqueuePlugins       map[string][]string `json:"preEnqueuePlugins"`
	Plugins                 map[string][]string `json:"plugins"`
	NominatorPodLister      string              `json:"nominatorPodLister"`
}

// header is the first line of a trace.
type header struct {
	Schedtrace int    `json:"schedtrace"`
	Layer      string `json:"layer"`
	Name       string `json:"name"`
	Upstream   string `json:"upstream"`
	Config     config `json:"config"`
}

// clusterEvent is the event argument of q_move_all.
type clusterEvent struct {
	Resource string `json:"resource"`
	Action   string `json:"action"`
	Label    string `json:"label"`
}

// step is one step line. Object arguments stay raw until the op says which
// kind they are.
type step struct {
	T        int64           `json:"t"`
	Op       string          `json:"op"`
	Pod      json.RawMessage `json:"pod"`
	Old      json.RawMessage `json:"old"`
	New      json.RawMessage `json:"new"`
	Node     json.RawMessage `json:"node"`
	Plugins  []string        `json:"plugins"`
	Cycle    json.RawMessage `json:"cycle"`
	Pods     []string        `json:"pods"`
	Event    *clusterEvent   `json:"event"`
	Precheck *[]string       `json:"precheck"`

	Tombstone            bool   `json:"tombstone"`
	Reserve              string `json:"reserve"`
	Permit               string `json:"permit"`
	Prebind              string `json:"prebind"`
	Bind                 string `json:"bind"`
	Resource             string `json:"resource"`
	Action               string `json:"action"`
	WaitForFirstConsumer bool   `json:"waitForFirstConsumer"`

	// decoded holds object arguments decoded ahead of time by
	// decodeObjects (a bench keeps decoding out of its clock), by field;
	// the layers read arguments through podArg, mustPod and nodeArg, which
	// take them from here when present.
	decoded map[string]any
}

// raw is the undecoded argument of a field.
func (st *step) raw(field string) json.RawMessage {
	switch field {
	case "pod":
		return st.Pod
	case "old":
		return st.Old
	case "new":
		return st.New
	case "node":
		return st.Node
	}
	return nil
}

// isNodeOp says whether a step's object arguments are nodes (node_add,
// c_update_node, ...) rather than pods.
func isNodeOp(op string) bool {
	return strings.HasPrefix(op, "node_") || strings.HasSuffix(op, "_node")
}

// moveCarriesNodes says whether the step is a q_move_all whose event's
// objects are nodes (a Node event); pods otherwise.
func (st *step) moveCarriesNodes() bool {
	return st.Op == "q_move_all" && st.Event != nil && st.Event.Resource == "Node"
}

// decodeObjects decodes every object argument of the step now, as the op's
// kind (v1.Node for a node op, v1.Pod otherwise), and drops its raw bytes.
// Arguments that are not JSON objects (a pod named by its key, a node name,
// null) are left as they are, for the layer to read.
func (st *step) decodeObjects() error {
	for _, field := range []string{"pod", "old", "new", "node"} {
		raw := bytes.TrimSpace(st.raw(field))
		if len(raw) == 0 || raw[0] != '{' {
			continue
		}
		var obj any
		var err error
		if isNodeOp(st.Op) || st.moveCarriesNodes() {
			obj, err = decodeNode(raw, field)
		} else {
			obj, err = decodePod(raw, field)
		}
		if err != nil {
			return err
		}
		if st.decoded == nil {
			st.decoded = map[string]any{}
		}
		st.decoded[field] = obj
		switch field {
		case "pod":
			st.Pod = nil
		case "old":
			st.Old = nil
		case "new":
			st.New = nil
		case "node":
			st.Node = nil
		}
	}
	return nil
}

// podArg is a pod argument as upstream's v1.Pod; nil for null or absent.
func (st *step) podArg(field string) (*v1.Pod, error) {
	if pod, ok := st.decoded[field].(*v1.Pod); ok {
		return pod, nil
	}
	return decodePod(st.raw(field), field)
}

// mustPod is podArg for an argument the op requires.
func (st *step) mustPod(field string) (*v1.Pod, error) {
	pod, err := st.podArg(field)
	if err == nil && pod == nil {
		err = fmt.Errorf("field %q: missing", field)
	}
	return pod, err
}

// nodeArg is a node argument as upstream's v1.Node; the op requires it.
func (st *step) nodeArg(field string) (*v1.Node, error) {
	if node, ok := st.decoded[field].(*v1.Node); ok {
		return node, nil
	}
	return decodeNode(st.raw(field), field)
}

// isNull says whether a raw argument is absent or JSON null.
func isNull(raw json.RawMessage) bool {
	return len(bytes.TrimSpace(raw)) == 0 || bytes.Equal(bytes.TrimSpace(raw), []byte("null"))
}

// decodePod decodes a pod argument as upstream's v1.Pod; nil for null.
func decodePod(raw json.RawMessage, field string) (*v1.Pod, error) {
	if isNull(raw) {
		return nil, nil
	}
	pod := &v1.Pod{}
	if err := json.Unmarshal(raw, pod); err != nil {
		return nil, fmt.Errorf("field %q: %v", field, err)
	}
	return pod, nil
}

// decodeNode decodes a node argument as upstream's v1.Node.
func decodeNode(raw json.RawMessage, field string) (*v1.Node, error) {
	if isNull(raw) {
		return nil, fmt.Errorf("field %q: missing", field)
	}
	node := &v1.Node{}
	if err := json.Unmarshal(raw, node); err != nil {
		return nil, fmt.Errorf("field %q: %v", field, err)
	}
	return node, nil
}

// podKey is a pod's key in a trace: namespace/name.
func podKey(pod *v1.Pod) string {
	return pod.Namespace + "/" + pod.Name
}

// out is a step's out in the canonical encoding: only the keys that have
// something to say. encoding/json writes a map's keys sorted.
type out map[string]any

// notApplicable is an error of a step this version cannot apply at all (a
// q_add_unschedulable of a pod never popped): the reply says so, and a
// recorder truncates the trace there.
type notApplicable struct{ reason string }

func (e notApplicable) Error() string { return e.reason }

// lastPopped reads a queue step's "pod" key and returns what the latest
// q_pop of that key returned (lastPop); a key never popped is a step this
// version cannot apply.
func lastPopped[T any](lastPop map[string]T, raw json.RawMessage) (T, error) {
	var zero T
	var key string
	if err := json.Unmarshal(raw, &key); err != nil {
		return zero, fmt.Errorf("field \"pod\": %v", err)
	}
	p, ok := lastPop[key]
	if !ok {
		return zero, notApplicable{key + " was never popped"}
	}
	return p, nil
}

// cycleArg reads q_add_unschedulable's cycle: an integer, or "current" (and
// absent) for the queue's current scheduling cycle.
func cycleArg(raw json.RawMessage, current int64) (int64, error) {
	if isNull(raw) {
		return current, nil
	}
	var s string
	if json.Unmarshal(raw, &s) == nil {
		if s == "current" {
			return current, nil
		}
		return 0, fmt.Errorf("field \"cycle\": %q is not \"current\"", s)
	}
	var n int64
	if err := json.Unmarshal(raw, &n); err != nil {
		return 0, fmt.Errorf("field \"cycle\": %v", err)
	}
	return n, nil
}

// errOut is the out of a call that returns an error: {"error": true} when
// it did, {} when it did not.
func errOut(err error) out {
	if err != nil {
		return out{"error": true}
	}
	return out{}
}
