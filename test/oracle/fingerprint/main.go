// An independent oracle for the schema plan fingerprint, written from
// the contract with Go's own encoding/json, so that the TypeScript side (src/plan/canonical.ts,
// src/plan/fingerprint.ts, and the model that reads a plan spec) is checked against the decoder,
// the validation and the encoder the operator uses rather than against itself. Standard library
// only.
//
// Input: one PtahSchemaPlan spec per line, as the JSON text an API server serves (camelCase
// names). It is decoded as client-go decodes a typed object: field names matched exactly (case
// sensitive, like sigs.k8s.io/json), unknown fields ignored, null read as the zero value, the
// last of duplicate names kept, an integer field refusing anything but an integer literal in
// int64's range (1.0, 1e0 and 1.5 are refused; -0 is 0).
// Output: one line per input:
//
//	{"decoded":true,"canonical":"<base64>","digest":"sha256:<hex>","problems":["…"]}
//
// canonical and digest are the hash of the binding as decoded (whether or not it is valid);
// problems are the operator's validation before hashing, empty when it would hash it.
// A line that does not decode is {"decoded":false,"error":"…"}. Each answer is written (flushed)
// before the next line is read, so one process can serve a caller line by line.
//
// -contract-versions lists the contract versions validation accepts (the plugin reads 1 and an
// earlier generation's 3, README "Decisions"); the default is the contract's current version, 1.
package main

import (
	"bufio"
	"bytes"
	"crypto/sha256"
	"encoding/base64"
	"encoding/hex"
	"encoding/json"
	"flag"
	"fmt"
	"os"
	"regexp"
	"sort"
	"strconv"
	"strings"
)

// planSpec holds the fields of PtahSchemaPlan.spec that the fingerprint binds.
type planSpec struct {
	ContractVersion          int64
	SchemaUID                string
	ContentDigest            string
	ArtifactDigest           string
	CoordinationDigest       string
	TargetIdentityDigest     string
	ActualStateFingerprint   string
	DesiredStateFingerprint  string
	PolicyFingerprint        string
	VerificationPolicyUID    string
	VerificationPolicyDigest string
	ExecutionBindingID       string
	ControllerStateVersion   int64
	PtahVersion              string
	ExecutorImage            string
	RunnerProtocolVersion    int64
	Destructive              bool
	PrivilegeChanges         []string
	StatementCount           int64
}

// binding is the hashed object: a struct, so encoding/json keeps this field order.
type binding struct {
	ContractVersion          int64    `json:"contract_version"`
	SchemaUID                string   `json:"schema_uid"`
	PlanContentDigest        string   `json:"plan_content_digest"`
	ArtifactDigest           string   `json:"artifact_digest"`
	CoordinationDigest       string   `json:"coordination_digest"`
	TargetIdentityDigest     string   `json:"target_identity_digest"`
	ActualStateFingerprint   string   `json:"actual_state_fingerprint"`
	DesiredStateFingerprint  string   `json:"desired_state_fingerprint"`
	PolicyFingerprint        string   `json:"policy_fingerprint"`
	VerificationPolicyUID    string   `json:"verification_policy_uid"`
	VerificationPolicyDigest string   `json:"verification_policy_digest"`
	ExecutionBindingID       string   `json:"execution_binding_id"`
	ControllerStateVersion   int64    `json:"controller_state_version"`
	PtahVersion              string   `json:"ptah_version"`
	ExecutorImage            string   `json:"executor_image"`
	RunnerProtocolVersion    int64    `json:"runner_protocol_version"`
	Destructive              bool     `json:"destructive"`
	PrivilegeChanges         []string `json:"privilege_changes"`
	StatementCount           int64    `json:"statement_count"`
}

// object decodes a JSON object into its members, names exact; null is an empty object.
func object(raw json.RawMessage) (map[string]json.RawMessage, error) {
	var m map[string]json.RawMessage
	if err := json.Unmarshal(raw, &m); err != nil {
		return nil, err
	}
	return m, nil
}

// integer decodes an int64 field as a typed client does: only an integer literal in range.
func integer(raw json.RawMessage, into *int64) error {
	if string(raw) == "null" {
		return nil
	}
	if _, err := strconv.ParseInt(string(raw), 10, 64); err != nil {
		return fmt.Errorf("cannot unmarshal number %s into an int64 field", raw)
	}
	return json.Unmarshal(raw, into)
}

func decode(line []byte) (planSpec, error) {
	var s planSpec
	top, err := object(line)
	if err != nil {
		return s, err
	}
	ints := map[string]*int64{
		"contractVersion":        &s.ContractVersion,
		"controllerStateVersion": &s.ControllerStateVersion,
		"runnerProtocolVersion":  &s.RunnerProtocolVersion,
		"statementCount":         &s.StatementCount,
	}
	strs := map[string]*string{
		"contentDigest":            &s.ContentDigest,
		"artifactDigest":           &s.ArtifactDigest,
		"coordinationDigest":       &s.CoordinationDigest,
		"targetIdentityDigest":     &s.TargetIdentityDigest,
		"actualStateFingerprint":   &s.ActualStateFingerprint,
		"desiredStateFingerprint":  &s.DesiredStateFingerprint,
		"policyFingerprint":        &s.PolicyFingerprint,
		"verificationPolicyUID":    &s.VerificationPolicyUID,
		"verificationPolicyDigest": &s.VerificationPolicyDigest,
		"executionBindingID":       &s.ExecutionBindingID,
		"ptahVersion":              &s.PtahVersion,
		"executorImage":            &s.ExecutorImage,
	}
	for name, raw := range top {
		var err error
		switch {
		case ints[name] != nil:
			err = integer(raw, ints[name])
		case strs[name] != nil:
			err = json.Unmarshal(raw, strs[name])
		case name == "destructive":
			err = json.Unmarshal(raw, &s.Destructive)
		case name == "privilegeChanges":
			err = json.Unmarshal(raw, &s.PrivilegeChanges)
		case name == "schemaRef":
			var ref map[string]json.RawMessage
			if ref, err = object(raw); err == nil {
				// ObjectRef's name is a string too.
				for _, f := range []string{"name"} {
					if r, ok := ref[f]; ok && err == nil {
						var ignored string
						err = json.Unmarshal(r, &ignored)
					}
				}
				if r, ok := ref["uid"]; ok && err == nil {
					err = json.Unmarshal(r, &s.SchemaUID)
				}
			}
		}
		if err != nil {
			return s, fmt.Errorf("%s: %v", name, err)
		}
	}
	return s, nil
}

// normalize: each entry trimmed (Go's notion of white space), empties dropped, duplicates
// dropped, sorted by bytes; an empty list is [] and never null.
func normalize(kinds []string) []string {
	seen := map[string]bool{}
	out := []string{}
	for _, k := range kinds {
		t := strings.TrimSpace(k)
		if t == "" || seen[t] {
			continue
		}
		seen[t] = true
		out = append(out, t)
	}
	sort.Strings(out)
	return out
}

func bindingOf(s planSpec) binding {
	return binding{
		ContractVersion:          s.ContractVersion,
		SchemaUID:                s.SchemaUID,
		PlanContentDigest:        s.ContentDigest,
		ArtifactDigest:           s.ArtifactDigest,
		CoordinationDigest:       s.CoordinationDigest,
		TargetIdentityDigest:     s.TargetIdentityDigest,
		ActualStateFingerprint:   s.ActualStateFingerprint,
		DesiredStateFingerprint:  s.DesiredStateFingerprint,
		PolicyFingerprint:        s.PolicyFingerprint,
		VerificationPolicyUID:    s.VerificationPolicyUID,
		VerificationPolicyDigest: s.VerificationPolicyDigest,
		ExecutionBindingID:       s.ExecutionBindingID,
		ControllerStateVersion:   s.ControllerStateVersion,
		PtahVersion:              s.PtahVersion,
		ExecutorImage:            s.ExecutorImage,
		RunnerProtocolVersion:    s.RunnerProtocolVersion,
		Destructive:              s.Destructive,
		PrivilegeChanges:         normalize(s.PrivilegeChanges),
		StatementCount:           s.StatementCount,
	}
}

var epoch = regexp.MustCompile(`^v1-[0-9a-f]{32}$`)

// validate is the contract's "validation before hashing", in its words.
func validate(b binding, versions map[int64]bool) []string {
	problems := []string{}
	if !versions[b.ContractVersion] {
		problems = append(problems, fmt.Sprintf("contract version %d is not supported", b.ContractVersion))
	}
	for _, f := range []struct{ name, value string }{
		{"schema_uid", b.SchemaUID}, {"plan_content_digest", b.PlanContentDigest}, {"artifact_digest", b.ArtifactDigest},
		{"coordination_digest", b.CoordinationDigest}, {"target_identity_digest", b.TargetIdentityDigest},
		{"actual_state_fingerprint", b.ActualStateFingerprint}, {"desired_state_fingerprint", b.DesiredStateFingerprint},
		{"policy_fingerprint", b.PolicyFingerprint}, {"verification_policy_uid", b.VerificationPolicyUID},
		{"verification_policy_digest", b.VerificationPolicyDigest}, {"execution_binding_id", b.ExecutionBindingID},
		{"ptah_version", b.PtahVersion}, {"executor_image", b.ExecutorImage},
	} {
		if strings.TrimSpace(f.value) == "" {
			problems = append(problems, f.name+" is empty")
		}
	}
	if strings.TrimSpace(b.ExecutionBindingID) != "" && !epoch.MatchString(b.ExecutionBindingID) {
		problems = append(problems, "execution_binding_id is not v1- and 32 lowercase hex digits")
	}
	if b.ControllerStateVersion < 1 {
		problems = append(problems, "controller_state_version is below 1")
	}
	if b.RunnerProtocolVersion < 1 {
		problems = append(problems, "runner_protocol_version is below 1")
	}
	if b.StatementCount < 1 {
		problems = append(problems, "statement_count is below 1")
	}
	return problems
}

type answer struct {
	Decoded   bool     `json:"decoded"`
	Canonical string   `json:"canonical,omitempty"`
	Digest    string   `json:"digest,omitempty"`
	Problems  []string `json:"problems,omitempty"`
	Error     string   `json:"error,omitempty"`
}

func main() {
	list := flag.String("contract-versions", "1", "comma-separated contract versions validation accepts")
	flag.Parse()
	versions := map[int64]bool{}
	for _, v := range strings.Split(*list, ",") {
		n, err := strconv.ParseInt(strings.TrimSpace(v), 10, 64)
		if err != nil {
			fmt.Fprintln(os.Stderr, "bad -contract-versions:", err)
			os.Exit(2)
		}
		versions[n] = true
	}
	in := bufio.NewScanner(os.Stdin)
	in.Buffer(make([]byte, 1<<20), 64<<20)
	out := bufio.NewWriter(os.Stdout)
	defer out.Flush()
	enc := json.NewEncoder(out)
	for in.Scan() {
		line := bytes.TrimSpace(in.Bytes())
		if len(line) == 0 {
			continue
		}
		var a answer
		if s, err := decode(line); err != nil {
			a.Error = err.Error()
		} else {
			b := bindingOf(s)
			// json.Marshal: compact, HTML-safe escapes (< > & U+2028 U+2029), UTF-8.
			c, err := json.Marshal(b)
			if err != nil {
				a.Error = err.Error()
			} else {
				sum := sha256.Sum256(c)
				a.Decoded = true
				a.Canonical = base64.StdEncoding.EncodeToString(c)
				a.Digest = "sha256:" + hex.EncodeToString(sum[:])
				a.Problems = validate(b, versions)
			}
		}
		if err := enc.Encode(a); err != nil {
			fmt.Fprintln(os.Stderr, err)
			os.Exit(1)
		}
		// An answer per line as soon as it is ready: a long-running caller (test/oracle/sync.ts)
		// waits for each one before it writes the next line.
		if err := out.Flush(); err != nil {
			fmt.Fprintln(os.Stderr, err)
			os.Exit(1)
		}
	}
	if err := in.Err(); err != nil {
		fmt.Fprintln(os.Stderr, err)
		os.Exit(1)
	}
}
