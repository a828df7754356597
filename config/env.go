package config

import (
	"errors"
	"fmt"
	"strings"
	"unicode"
)

// FromEnv reads the one account that the environment can describe, named
// "default": WOOX_API_KEY plus exactly one of WOOX_API_SECRET (the secret
// itself) or WOOX_API_SECRET_FILE (a file holding it, which users other than
// its owner and group can neither read nor write). It returns nil, nil when
// none of the three variables is set. A nil lookup means os.LookupEnv.
func FromEnv(lookup Lookup) (*Account, error) {
	lookup = orLookupEnv(lookup)
	for _, name := range []string{EnvAPIKey, EnvAPISecret, EnvAPISecretFile} {
		if value, set := lookup(name); set && value == "" {
			return nil, fmt.Errorf("environment: %s is set but empty: give it a value, or unset it", name)
		}
	}
	key, _ := lookup(EnvAPIKey)
	secret, _ := lookup(EnvAPISecret)
	secretFile, _ := lookup(EnvAPISecretFile)

	switch {
	case key == "" && secret == "" && secretFile == "":
		return nil, nil
	case secret != "" && secretFile != "":
		return nil, fmt.Errorf("environment: %s and %s are both set; set only one", EnvAPISecret, EnvAPISecretFile)
	case key == "" && secret != "":
		return nil, fmt.Errorf("environment: %s is set but %s is not", EnvAPISecret, EnvAPIKey)
	case key == "":
		return nil, fmt.Errorf("environment: %s is set but %s is not", EnvAPISecretFile, EnvAPIKey)
	case secret == "" && secretFile == "":
		return nil, fmt.Errorf("environment: %s is set but neither %s nor %s is", EnvAPIKey, EnvAPISecret, EnvAPISecretFile)
	}
	if err := checkAPIKey(key); err != nil {
		return nil, fmt.Errorf("environment: %s: %w", EnvAPIKey, err)
	}

	acc := &Account{Name: DefaultAccountName, APIKey: key}
	var err error
	if secretFile != "" {
		if acc.Secret, err = readSecretFile(secretFile); err != nil {
			return nil, fmt.Errorf("environment: %s: %w", EnvAPISecretFile, err)
		}
	} else if acc.Secret, err = cleanSecret(secret); err != nil {
		return nil, fmt.Errorf("environment: %s: %w", EnvAPISecret, err)
	}
	return acc, nil
}

// checkAPIKey rejects keys that cannot go into an HTTP header as they are,
// which usually means a stray space or newline was copied with them.
func checkAPIKey(key string) error {
	if key == "" {
		return errors.New("must not be empty")
	}
	if strings.IndexFunc(key, func(r rune) bool { return unicode.IsSpace(r) || unicode.IsControl(r) }) >= 0 {
		return errors.New("must not contain whitespace or control characters")
	}
	return nil
}
