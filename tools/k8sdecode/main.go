// Command k8sdecode decodes every pod and node of schedtrace traces the way
// an implementation in Go would: json.Unmarshal into mirrors of the v1.Pod
// and v1.Node fields traces use, with time.Time for metav1.Time (RFC 3339)
// and a Quantity that reads as resource.Quantity.UnmarshalJSON does (a
// quoted or bare quantity in ParseQuantity's grammar). Standard library
// only, so it builds offline; the C++ checker testkit/k8s_json_check.h is
// the stricter, always-run twin of this tool.
//
//	go run ./tools/k8sdecode PATH...
//
// A PATH is a trace or a directory, whose *.jsonl files (at any depth) are
// read. Prints one line per object that does not decode and exits 1 if any
// does, or if there was nothing to read.
package main

import (
	"bufio"
	"encoding/json"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"regexp"
	"strings"
	"time"
)

// Quantity mirrors resource.Quantity's JSON decoding.
type Quantity string

var quantityRE = regexp.MustCompile(
	`^[+-]?([0-9]+(\.[0-9]*)?|\.[0-9]+)([eE][+-]?[0-9]+|Ki|Mi|Gi|Ti|Pi|Ei|[numkMGTPE])?$`)

func (q *Quantity) UnmarshalJSON(b []byte) error {
	s := string(b)
	if s == "null" {
		return nil
	}
	if len(s) >= 2 && s[0] == '"' && s[len(s)-1] == '"' {
		s = s[1 : len(s)-1]
	}
	s = strings.TrimSpace(s)
	if !quantityRE.MatchString(s) {
		return fmt.Errorf("quantities must match the regular expression %q: %q",
			quantityRE.String(), s)
	}
	*q = Quantity(s)
	return nil
}

// Time mirrors metav1.Time: null or time.Parse(time.RFC3339, s).
type Time struct{ time.Time }

func (t *Time) UnmarshalJSON(b []byte) error {
	if string(b) == "null" {
		return nil
	}
	var s string
	if err := json.Unmarshal(b, &s); err != nil {
		return err
	}
	pt, err := time.Parse(time.RFC3339, s)
	if err != nil {
		return err
	}
	t.Time = pt
	return nil
}

type ResourceList map[string]Quantity

type ObjectMeta struct {
	Name                       string            `json:"name,omitempty"`
	GenerateName               string            `json:"generateName,omitempty"`
	Namespace                  string            `json:"namespace,omitempty"`
	UID                        string            `json:"uid,omitempty"`
	ResourceVersion            string            `json:"resourceVersion,omitempty"`
	Generation                 int64             `json:"generation,omitempty"`
	CreationTimestamp          Time              `json:"creationTimestamp,omitempty"`
	DeletionTimestamp          *Time             `json:"deletionTimestamp,omitempty"`
	DeletionGracePeriodSeconds *int64            `json:"deletionGracePeriodSeconds,omitempty"`
	Labels                     map[string]string `json:"labels,omitempty"`
	Annotations                map[string]string `json:"annotations,omitempty"`
	Finalizers                 []string          `json:"finalizers,omitempty"`
}

type Requirement struct {
	Key      string   `json:"key"`
	Operator string   `json:"operator"`
	Values   []string `json:"values,omitempty"`
}

type NodeSelectorTerm struct {
	MatchExpressions []Requirement `json:"matchExpressions,omitempty"`
	MatchFields      []Requirement `json:"matchFields,omitempty"`
}

type LabelSelector struct {
	MatchLabels      map[string]string `json:"matchLabels,omitempty"`
	MatchExpressions []Requirement     `json:"matchExpressions,omitempty"`
}

type PodAffinityTerm struct {
	LabelSelector     *LabelSelector `json:"labelSelector,omitempty"`
	Namespaces        []string       `json:"namespaces,omitempty"`
	TopologyKey       string         `json:"topologyKey"`
	NamespaceSelector *LabelSelector `json:"namespaceSelector,omitempty"`
}

type PodAffinity struct {
	Required  []PodAffinityTerm `json:"requiredDuringSchedulingIgnoredDuringExecution,omitempty"`
	Preferred []struct {
		Weight          int32           `json:"weight"`
		PodAffinityTerm PodAffinityTerm `json:"podAffinityTerm"`
	} `json:"preferredDuringSchedulingIgnoredDuringExecution,omitempty"`
}

type Affinity struct {
	NodeAffinity *struct {
		Required *struct {
			NodeSelectorTerms []NodeSelectorTerm `json:"nodeSelectorTerms"`
		} `json:"requiredDuringSchedulingIgnoredDuringExecution,omitempty"`
		Preferred []struct {
			Weight     int32            `json:"weight"`
			Preference NodeSelectorTerm `json:"preference"`
		} `json:"preferredDuringSchedulingIgnoredDuringExecution,omitempty"`
	} `json:"nodeAffinity,omitempty"`
	PodAffinity     *PodAffinity `json:"podAffinity,omitempty"`
	PodAntiAffinity *PodAffinity `json:"podAntiAffinity,omitempty"`
}

type Container struct {
	Name      string `json:"name"`
	Image     string `json:"image,omitempty"`
	Resources struct {
		Limits   ResourceList `json:"limits,omitempty"`
		Requests ResourceList `json:"requests,omitempty"`
	} `json:"resources,omitempty"`
}

type Toleration struct {
	Key               string `json:"key,omitempty"`
	Operator          string `json:"operator,omitempty"`
	Value             string `json:"value,omitempty"`
	Effect            string `json:"effect,omitempty"`
	TolerationSeconds *int64 `json:"tolerationSeconds,omitempty"`
}

type Pod struct {
	Kind       string     `json:"kind,omitempty"`
	APIVersion string     `json:"apiVersion,omitempty"`
	Metadata   ObjectMeta `json:"metadata,omitempty"`
	Spec       struct {
		InitContainers  []Container       `json:"initContainers,omitempty"`
		Containers      []Container       `json:"containers"`
		NodeSelector    map[string]string `json:"nodeSelector,omitempty"`
		NodeName        string            `json:"nodeName,omitempty"`
		Affinity        *Affinity         `json:"affinity,omitempty"`
		SchedulerName   string            `json:"schedulerName,omitempty"`
		Tolerations     []Toleration      `json:"tolerations,omitempty"`
		Priority        *int32            `json:"priority,omitempty"`
		Overhead        ResourceList      `json:"overhead,omitempty"`
		SchedulingGates []struct {
			Name string `json:"name"`
		} `json:"schedulingGates,omitempty"`
	} `json:"spec,omitempty"`
	Status struct {
		Conditions []struct {
			Type               string `json:"type"`
			Status             string `json:"status"`
			LastProbeTime      Time   `json:"lastProbeTime,omitempty"`
			LastTransitionTime Time   `json:"lastTransitionTime,omitempty"`
			Reason             string `json:"reason,omitempty"`
			Message            string `json:"message,omitempty"`
		} `json:"conditions,omitempty"`
		NominatedNodeName string `json:"nominatedNodeName,omitempty"`
		StartTime         *Time  `json:"startTime,omitempty"`
	} `json:"status,omitempty"`
}

type Node struct {
	Kind       string     `json:"kind,omitempty"`
	APIVersion string     `json:"apiVersion,omitempty"`
	Metadata   ObjectMeta `json:"metadata,omitempty"`
	Spec       struct {
		Unschedulable bool `json:"unschedulable,omitempty"`
		Taints        []struct {
			Key       string `json:"key"`
			Value     string `json:"value,omitempty"`
			Effect    string `json:"effect"`
			TimeAdded *Time  `json:"timeAdded,omitempty"`
		} `json:"taints,omitempty"`
	} `json:"spec,omitempty"`
	Status struct {
		Capacity    ResourceList `json:"capacity,omitempty"`
		Allocatable ResourceList `json:"allocatable,omitempty"`
		Conditions  []struct {
			Type               string `json:"type"`
			Status             string `json:"status"`
			LastHeartbeatTime  Time   `json:"lastHeartbeatTime,omitempty"`
			LastTransitionTime Time   `json:"lastTransitionTime,omitempty"`
			Reason             string `json:"reason,omitempty"`
			Message            string `json:"message,omitempty"`
		} `json:"conditions,omitempty"`
		DaemonEndpoints struct {
			KubeletEndpoint struct {
				Port int32 `json:"Port"`
			} `json:"kubeletEndpoint"`
		} `json:"daemonEndpoints,omitempty"`
	} `json:"status,omitempty"`
}

// The object arguments of a step; a key argument (q_nominate's node, bind's
// pod) is a JSON string and a `$ref` an object with that key: both skipped.
type step struct {
	Op   string          `json:"op"`
	Pod  json.RawMessage `json:"pod"`
	Old  json.RawMessage `json:"old"`
	New  json.RawMessage `json:"new"`
	Node json.RawMessage `json:"node"`
}

func isObject(raw json.RawMessage) bool {
	if len(raw) == 0 || raw[0] != '{' {
		return false
	}
	var ref struct {
		Ref *string `json:"$ref"`
	}
	return json.Unmarshal(raw, &ref) != nil || ref.Ref == nil
}

func checkFile(path string) (bad, objects int) {
	f, err := os.Open(path)
	if err != nil {
		fmt.Println(err)
		return 1, 0
	}
	defer f.Close()
	sc := bufio.NewScanner(f)
	sc.Buffer(make([]byte, 1<<20), 1<<30)
	header := true
	for n := 1; sc.Scan(); n++ {
		line := strings.TrimSpace(sc.Text())
		if line == "" || line[0] == '#' {
			continue
		}
		if header {
			header = false
			continue
		}
		var s step
		if err := json.Unmarshal([]byte(line), &s); err != nil {
			fmt.Printf("%s:%d: %v\n", path, n, err)
			bad++
			continue
		}
		nodeOp := strings.Contains(s.Op, "node")
		for _, arg := range []struct {
			key  string
			raw  json.RawMessage
			node bool
		}{{"pod", s.Pod, false}, {"old", s.Old, nodeOp}, {"new", s.New, nodeOp},
			{"node", s.Node, true}} {
			if !isObject(arg.raw) {
				continue
			}
			objects++
			var err error
			if arg.node {
				err = json.Unmarshal(arg.raw, &Node{})
			} else {
				err = json.Unmarshal(arg.raw, &Pod{})
			}
			if err != nil {
				fmt.Printf("%s:%d: %s: %v\n", path, n, arg.key, err)
				bad++
			}
		}
	}
	if err := sc.Err(); err != nil {
		fmt.Printf("%s: %v\n", path, err)
		bad++
	}
	return bad, objects
}

func main() {
	var files []string
	for _, arg := range os.Args[1:] {
		err := filepath.WalkDir(arg, func(path string, d fs.DirEntry, err error) error {
			if err != nil {
				return err
			}
			if !d.IsDir() && (path == arg || strings.HasSuffix(path, ".jsonl")) {
				files = append(files, path)
			}
			return nil
		})
		if err != nil {
			fmt.Println(err)
			os.Exit(1)
		}
	}
	bad, objects := 0, 0
	for _, path := range files {
		b, o := checkFile(path)
		bad, objects = bad+b, objects+o
	}
	fmt.Printf("k8sdecode: %d files, %d objects, %d do not decode\n",
		len(files), objects, bad)
	if bad > 0 || len(files) == 0 {
		os.Exit(1)
	}
}
