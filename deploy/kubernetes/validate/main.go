// Command validate reads rendered Kubernetes manifests (kustomize build or
// helm template output) on standard input and checks every object against the real API
// types of Kubernetes and the prometheus-operator, strictly: an unknown or
// misspelt field is an error, as the API server's strict field validation
// would report it. Then it checks what the exporter needs of them (one pod
// per shard, the secret's mode, probes, the shards spread across nodes and
// evicted one at a time, ...). With -operator it expects the
// operator variant (deploy/kubernetes/operator: a ServiceMonitor and a
// PrometheusRule); without, the base, which must hold no prometheus-operator
// object so that it applies on a cluster without the operator's CRDs. It is
// its own module so that the exporter does not depend on the Kubernetes
// libraries.
package main

import (
	"bytes"
	"encoding/json"
	"errors"
	"flag"
	"fmt"
	"io"
	"os"

	monitoringv1 "github.com/prometheus-operator/prometheus-operator/pkg/apis/monitoring/v1"
	appsv1 "k8s.io/api/apps/v1"
	corev1 "k8s.io/api/core/v1"
	networkingv1 "k8s.io/api/networking/v1"
	policyv1 "k8s.io/api/policy/v1"
	"sigs.k8s.io/yaml"
)

func main() {
	operator := flag.Bool("operator", false, "expect the operator variant: a ServiceMonitor and a PrometheusRule (without: none)")
	flag.Parse()
	in, err := io.ReadAll(os.Stdin)
	if err != nil {
		fmt.Fprintln(os.Stderr, "validate:", err)
		os.Exit(2)
	}
	objs, err := decodeAll(in)
	if err == nil {
		err = checkExporter(objs, *operator)
	}
	if err != nil {
		fmt.Fprintln(os.Stderr, "validate:", err)
		os.Exit(1)
	}
	fmt.Printf("validate: %d objects decode strictly and meet the exporter's needs\n", objs.count)
}

// objects are the rendered objects by kind.
type objects struct {
	count           int
	serviceAccounts []corev1.ServiceAccount
	configMaps      []corev1.ConfigMap
	secrets         []corev1.Secret
	services        []corev1.Service
	statefulSets    []appsv1.StatefulSet
	networkPolicies []networkingv1.NetworkPolicy
	disruptions     []policyv1.PodDisruptionBudget
	serviceMonitors []monitoringv1.ServiceMonitor
	prometheusRules []monitoringv1.PrometheusRule
}

// decodeAll decodes every document of a YAML stream into its typed object.
func decodeAll(stream []byte) (*objects, error) {
	out := &objects{}
	for i, doc := range bytes.Split(append([]byte("\n"), stream...), []byte("\n---")) {
		if len(bytes.TrimSpace(doc)) == 0 {
			continue
		}
		js, err := yaml.YAMLToJSON(doc)
		if err != nil {
			return nil, fmt.Errorf("document %d: %w", i, err)
		}
		var meta struct {
			APIVersion string `json:"apiVersion"`
			Kind       string `json:"kind"`
			Metadata   struct {
				Name string `json:"name"`
			} `json:"metadata"`
		}
		if err := json.Unmarshal(js, &meta); err != nil {
			return nil, fmt.Errorf("document %d: %w", i, err)
		}
		name := fmt.Sprintf("%s %s/%s", meta.APIVersion, meta.Kind, meta.Metadata.Name)
		if err := out.add(meta.APIVersion+" "+meta.Kind, js); err != nil {
			return nil, fmt.Errorf("%s: %w", name, err)
		}
		out.count++
	}
	if out.count == 0 {
		return nil, errors.New("no objects in the input")
	}
	return out, nil
}

func (o *objects) add(kind string, js []byte) error {
	switch kind {
	case "v1 ServiceAccount":
		return strictAppend(js, &o.serviceAccounts)
	case "v1 ConfigMap":
		return strictAppend(js, &o.configMaps)
	case "v1 Secret":
		return strictAppend(js, &o.secrets)
	case "v1 Service":
		return strictAppend(js, &o.services)
	case "apps/v1 StatefulSet":
		return strictAppend(js, &o.statefulSets)
	case "networking.k8s.io/v1 NetworkPolicy":
		return strictAppend(js, &o.networkPolicies)
	case "policy/v1 PodDisruptionBudget":
		return strictAppend(js, &o.disruptions)
	case "monitoring.coreos.com/v1 ServiceMonitor":
		return strictAppend(js, &o.serviceMonitors)
	case "monitoring.coreos.com/v1 PrometheusRule":
		return strictAppend(js, &o.prometheusRules)
	}
	return fmt.Errorf("kind %q is not one this deployment uses", kind)
}

// strictAppend decodes js into a new T, refusing unknown fields and
// trailing data, and appends it.
func strictAppend[T any](js []byte, to *[]T) error {
	dec := json.NewDecoder(bytes.NewReader(js))
	dec.DisallowUnknownFields()
	var v T
	if err := dec.Decode(&v); err != nil {
		return err
	}
	if dec.More() {
		return errors.New("trailing data")
	}
	*to = append(*to, v)
	return nil
}
