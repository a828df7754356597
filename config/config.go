// Package config resolves the WOO X accounts the exporter scrapes and the API
// secrets that sign their requests.
//
// Accounts come from exactly one source:
//
//   - a YAML file given with --config.file (see [LoadFile]), which may list
//     several accounts;
//   - otherwise the environment (see [FromEnv]), which describes one account
//     named "default";
//   - otherwise none, and the exporter serves public market data only.
//
// When a file is given, the environment variables WOOX_API_KEY,
// WOOX_API_SECRET and WOOX_API_SECRET_FILE must not be set (unless the file
// names one with api_secret_env): the account they describe would silently
// not be watched.
//
// Secrets are never read from the command line or from the config file itself,
// only from a file or an environment variable that the file names. They are
// held in a [Secret], which prints, logs and marshals as "<redacted>".
package config

import (
	"fmt"
	"os"
	"slices"
)

// Names of the environment variables that describe the single account of
// [FromEnv].
const (
	EnvAPIKey        = "WOOX_API_KEY"
	EnvAPISecret     = "WOOX_API_SECRET"
	EnvAPISecretFile = "WOOX_API_SECRET_FILE"
)

// DefaultAccountName is the name, and so the "account" label value, of the
// account described by the environment.
const DefaultAccountName = "default"

// Account is one set of exchange credentials and the name it is reported under.
type Account struct {
	// Name is the account's label value in metrics and logs.
	Name string
	// APIKey identifies the account to the exchange. It is not secret, but
	// logs should still show it through client.MaskAPIKey.
	APIKey string
	// Secret signs the account's requests.
	Secret Secret
	// SecretEnv is the environment variable the secret was read from, when
	// the config file named one (api_secret_env).
	SecretEnv string
}

// ReadVariables are the environment variables the accounts were read from:
// the single account's three, and those the config file names.
func ReadVariables(accounts []Account) map[string]bool {
	read := map[string]bool{EnvAPIKey: true, EnvAPISecret: true, EnvAPISecretFile: true}
	for _, a := range accounts {
		if a.SecretEnv != "" {
			read[a.SecretEnv] = true
		}
	}
	return read
}

// Load resolves the accounts to scrape: from the YAML file at path when path
// is not empty (the environment is then ignored), else from the environment.
// It returns nil, nil when neither describes any account. A nil lookup means
// os.LookupEnv.
func Load(path string, lookup Lookup) ([]Account, error) {
	if path != "" {
		accounts, err := LoadFile(path, lookup)
		if err == nil {
			err = checkEnvBesideFile(accounts, orLookupEnv(lookup))
		}
		if err != nil {
			return nil, err
		}
		return accounts, nil
	}
	acc, err := FromEnv(lookup)
	if err != nil || acc == nil {
		return nil, err
	}
	return []Account{*acc}, nil
}

// checkEnvBesideFile refuses the single account's variables beside a config
// file, unless the file reads one of them itself.
func checkEnvBesideFile(accounts []Account, lookup Lookup) error {
	for _, v := range []string{EnvAPIKey, EnvAPISecret, EnvAPISecretFile} {
		if value, _ := lookup(v); value == "" {
			continue
		}
		if v != EnvAPIKey && slices.ContainsFunc(accounts, func(a Account) bool { return a.SecretEnv == v }) {
			continue
		}
		return fmt.Errorf("environment: %s is set beside --config.file, which lists the accounts and ignores it: add that account to the file, or unset %s", v, v)
	}
	return nil
}

// Lookup finds an environment variable, as os.LookupEnv does: set is false
// when it is not set at all, so that a variable set but empty can be told
// from one missing.
type Lookup func(name string) (value string, set bool)

func orLookupEnv(lookup Lookup) Lookup {
	if lookup == nil {
		return os.LookupEnv
	}
	return lookup
}
