package main

import (
	"path"
	"slices"
	"strings"

	corev1 "k8s.io/api/core/v1"
	"sigs.k8s.io/yaml"
)

// checkAccounts follows the accounts file (--config.file) to the volume it
// is mounted from, and each account's api_secret_file to the Secret volume
// it is read from: an account whose secret is on no Secret volume would stop
// the exporter at start. When the Secret is among the objects (created by
// the chart), it must hold the key. Without --config.file the exporter
// watches no account (public endpoints only) and reads no secret.
func checkAccounts(o *objects, pod corev1.PodSpec, c corev1.Container, fail failFunc) {
	file, ok := flagValue(c.Args, "--config.file")
	if !ok {
		return
	}
	vol, key, ok := mountedFrom(pod, c, file)
	if !ok || vol.ConfigMap == nil {
		fail("the accounts file %s is on no ConfigMap volume", file)
		return
	}
	i := slices.IndexFunc(o.configMaps, func(cm corev1.ConfigMap) bool { return cm.Name == vol.ConfigMap.Name })
	if i < 0 {
		fail("no ConfigMap %s, which holds the accounts file %s", vol.ConfigMap.Name, file)
		return
	}
	var accounts struct {
		Accounts []struct {
			Name          string `json:"name"`
			APISecretFile string `json:"api_secret_file"`
		} `json:"accounts"`
	}
	if err := yaml.Unmarshal([]byte(o.configMaps[i].Data[key]), &accounts); err != nil {
		fail("ConfigMap %s, key %s: the accounts file does not read: %v", vol.ConfigMap.Name, key, err)
		return
	}
	if len(accounts.Accounts) == 0 {
		fail("ConfigMap %s, key %s: no accounts listed, which the exporter refuses", vol.ConfigMap.Name, key)
		return
	}
	for _, a := range accounts.Accounts {
		secretFile := a.APISecretFile
		if secretFile == "" {
			continue // api_secret_env: read from the container's environment
		}
		if !path.IsAbs(secretFile) {
			secretFile = path.Join(path.Dir(file), secretFile)
		}
		vol, key, ok := mountedFrom(pod, c, secretFile)
		if !ok || vol.Secret == nil {
			fail("account %s: its api_secret_file %s is on no Secret volume", a.Name, secretFile)
			continue
		}
		for _, s := range o.secrets {
			if _, held := s.Data[key]; s.Name == vol.Secret.SecretName && !held && s.StringData[key] == "" {
				fail("account %s: Secret %s holds no key %q (its api_secret_file %s)", a.Name, s.Name, key, secretFile)
			}
		}
	}
}

// mountedFrom finds the volume a file in the container is read from, and
// the file's key in it: the mount deepest in the tree wins, as in the
// container's filesystem.
func mountedFrom(pod corev1.PodSpec, c corev1.Container, file string) (corev1.Volume, string, bool) {
	var best *corev1.VolumeMount
	var key string
	for i, m := range c.VolumeMounts {
		dir := strings.TrimSuffix(m.MountPath, "/")
		var k string
		switch {
		case file == dir:
			k = m.SubPath
		case strings.HasPrefix(file, dir+"/"):
			k = path.Join(m.SubPath, strings.TrimPrefix(file, dir+"/"))
		default:
			continue
		}
		if best == nil || len(dir) > len(strings.TrimSuffix(best.MountPath, "/")) {
			best, key = &c.VolumeMounts[i], k
		}
	}
	if best == nil || key == "" {
		return corev1.Volume{}, "", false
	}
	i := slices.IndexFunc(pod.Volumes, func(v corev1.Volume) bool { return v.Name == best.Name })
	if i < 0 {
		return corev1.Volume{}, "", false
	}
	return pod.Volumes[i], key, true
}
