package client

import (
	"crypto/tls"
	"crypto/x509"
	"errors"
	"fmt"
	"net/http"
	"strings"
)

// Kind classifies a failed exchange call by what a caller should do about it.
type Kind int

// The kinds of failure.
const (
	KindOther       Kind = iota // refused for a reason no retry fixes (bad parameter, not found, ...)
	KindRateLimited             // HTTP 429 or code -1003
	KindAuth                    // a rejected key, signature, timestamp or IP (HTTP 401, codes -1001, -1002)
	KindMaintenance             // code -1011 while the system status says maintenance
	// KindTransient is a 5xx, a timeout, a connection error, or a -1011
	// outside maintenance: the exchange uses -1011 for passing errors too.
	KindTransient
	// KindBadResponse is an answer not the documented JSON envelope: not
	// JSON, success:false, no data, over the size cap, or a redirect.
	KindBadResponse
	// KindTLS is an https connection that cannot be made or trusted (a
	// certificate that does not verify, a plain-http server): the CA bundle
	// or the URL must change.
	KindTLS
)

// kindNames are what an Error says of each Kind.
var kindNames = [...]string{KindOther: "request failed", KindRateLimited: "rate limited", KindAuth: "authentication failed",
	KindMaintenance: "exchange under maintenance", KindTransient: "transient failure", KindBadResponse: "bad response", KindTLS: "TLS failure"}

func (k Kind) String() string {
	if k < 0 || int(k) >= len(kindNames) {
		k = KindOther
	}
	return kindNames[k]
}

// Exchange error codes, from the legacy API's table.
const (
	CodeUnknown          = -1000
	CodeInvalidSignature = -1001
	CodeUnauthorized     = -1002
	CodeTooManyRequests  = -1003
	CodeMaintenance      = -1011
)

// Error is the one error type of the client. It never holds the API secret,
// the signature or request headers.
type Error struct {
	Op         string // e.g. "get token history page 2"
	Kind       Kind
	StatusCode int    // the HTTP status, 0 when no response came
	Code       int    // the exchange's error code, 0 when none
	Message    string // the exchange's error message
	Err        error  // the cause
}

func (e *Error) Error() string {
	msg := e.Op + ": " + e.Kind.String()
	if e.StatusCode != 0 {
		msg += fmt.Sprintf(" (HTTP %d", e.StatusCode)
		if e.Code != 0 {
			msg += fmt.Sprintf(", code %d", e.Code)
		}
		msg += ")"
	} else if e.Code != 0 {
		msg += fmt.Sprintf(" (code %d)", e.Code)
	}
	if e.Message != "" {
		msg += ": " + e.Message
	}
	if e.Err != nil {
		msg += ": " + e.Err.Error()
	}
	return msg
}

func (e *Error) Unwrap() error { return e.Err }

func kindOf(err error) (Kind, bool) {
	var e *Error
	if errors.As(err, &e) {
		return e.Kind, true
	}
	return 0, false
}

func isKind(err error, k Kind) bool {
	got, ok := kindOf(err)
	return ok && got == k
}

// IsRateLimited reports whether the exchange refused the call for exceeding its rate limit.
func IsRateLimited(err error) bool { return isKind(err, KindRateLimited) }

// IsAuth reports whether the exchange rejected the key, signature, timestamp or source IP.
func IsAuth(err error) bool { return isKind(err, KindAuth) }

// IsMaintenance reports whether the exchange is under maintenance.
func IsMaintenance(err error) bool { return isKind(err, KindMaintenance) }

// IsTransient reports whether the call failed in a way a later retry may fix:
// a 5xx answer, a timeout, a connection error or a -1011 outside maintenance.
func IsTransient(err error) bool { return isKind(err, KindTransient) }

// IsBadResponse reports whether the answer was not the documented envelope.
func IsBadResponse(err error) bool { return isKind(err, KindBadResponse) }

// IsTLS reports whether the https connection could not be made or trusted.
func IsTLS(err error) bool { return isKind(err, KindTLS) }

// TLSHint is what to check about a TLS failure.
func TLSHint(err error) string {
	if notTLS(err) {
		return "the URL is https but the server answers plain http: check the scheme of --woox.api-url"
	}
	return "the server's certificate does not verify: check the CA bundle (SSL_CERT_FILE, SSL_CERT_DIR), the host name in --woox.api-url and the clock"
}

// transportKind is the Kind of an error of the HTTP client's Do.
func transportKind(err error) Kind {
	var (
		verify   *tls.CertificateVerificationError
		unknown  x509.UnknownAuthorityError
		hostname x509.HostnameError
		invalid  x509.CertificateInvalidError
	)
	if errors.As(err, &verify) || errors.As(err, &unknown) || errors.As(err, &hostname) || errors.As(err, &invalid) || notTLS(err) {
		return KindTLS
	}
	return KindTransient
}

// notTLS reports whether an https request met a server not speaking TLS.
func notTLS(err error) bool {
	var record tls.RecordHeaderError
	return errors.As(err, &record) || strings.Contains(err.Error(), "server gave HTTP response to HTTPS client")
}

// classify maps an HTTP status and exchange code to a Kind.
func classify(status, code int) Kind {
	switch {
	case status == 429 || code == CodeTooManyRequests:
		return KindRateLimited
	case code == CodeMaintenance:
		return KindTransient // until the system status says maintenance (see Client.get)
	case status == 401 || status == 403 || code == CodeInvalidSignature || code == CodeUnauthorized:
		return KindAuth
	case status >= 500:
		return KindTransient
	case status >= 200 && status < 300:
		return KindBadResponse // success:false and no code recognised
	default:
		return KindOther
	}
}

// NotPermitted reports whether the exchange refused the key this call
// (-1002 or HTTP 403), as a sub-account's key on a main account's endpoint.
func NotPermitted(err error) bool {
	var e *Error
	return errors.As(err, &e) && (e.Code == CodeUnauthorized || e.StatusCode == http.StatusForbidden)
}
