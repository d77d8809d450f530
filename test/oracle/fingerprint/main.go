// An independent oracle for the schema plan fingerprint (operator-api §5.1, §5.2), written from
// the contract with Go's own encoding/json, so that the TypeScript canonical form
// (src/plan/canonical.ts, src/plan/fingerprint.ts) is checked against the encoder the operator
// uses rather than against itself. Standard library only.
//
// Input: one PtahSchemaPlan spec per line, as JSON (the API's camelCase field names).
// Output: one line per input, {"canonical":"<base64 of the canonical bytes>","digest":"sha256:<hex>"}
// or {"error":"…"} when the line is not a spec. No validation: the hash alone, as the binding
// states it (missing fields are their zero values).
package main

import (
	"bufio"
	"bytes"
	"crypto/sha256"
	"encoding/base64"
	"encoding/hex"
	"encoding/json"
	"fmt"
	"os"
	"sort"
	"strings"
)

// planSpec holds the fields of PtahSchemaPlan.spec that the fingerprint binds.
type planSpec struct {
	ContractVersion int64 `json:"contractVersion"`
	SchemaRef       struct {
		UID string `json:"uid"`
	} `json:"schemaRef"`
	ContentDigest            string   `json:"contentDigest"`
	ArtifactDigest           string   `json:"artifactDigest"`
	CoordinationDigest       string   `json:"coordinationDigest"`
	TargetIdentityDigest     string   `json:"targetIdentityDigest"`
	ActualStateFingerprint   string   `json:"actualStateFingerprint"`
	DesiredStateFingerprint  string   `json:"desiredStateFingerprint"`
	PolicyFingerprint        string   `json:"policyFingerprint"`
	VerificationPolicyUID    string   `json:"verificationPolicyUID"`
	VerificationPolicyDigest string   `json:"verificationPolicyDigest"`
	ExecutionBindingID       string   `json:"executionBindingID"`
	ControllerStateVersion   int64    `json:"controllerStateVersion"`
	PtahVersion              string   `json:"ptahVersion"`
	ExecutorImage            string   `json:"executorImage"`
	RunnerProtocolVersion    int64    `json:"runnerProtocolVersion"`
	Destructive              bool     `json:"destructive"`
	PrivilegeChanges         []string `json:"privilegeChanges"`
	StatementCount           int64    `json:"statementCount"`
}

// binding is the hashed object: a struct, so encoding/json keeps this field order (§5.2).
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

func canonical(s planSpec) ([]byte, error) {
	b := binding{
		ContractVersion:          s.ContractVersion,
		SchemaUID:                s.SchemaRef.UID,
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
	// json.Marshal: compact, HTML-safe escapes (< > & U+2028 U+2029), UTF-8.
	return json.Marshal(b)
}

type answer struct {
	Canonical string `json:"canonical,omitempty"`
	Digest    string `json:"digest,omitempty"`
	Error     string `json:"error,omitempty"`
}

func main() {
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
		var s planSpec
		if err := json.Unmarshal(line, &s); err != nil {
			a.Error = err.Error()
		} else if c, err := canonical(s); err != nil {
			a.Error = err.Error()
		} else {
			sum := sha256.Sum256(c)
			a.Canonical = base64.StdEncoding.EncodeToString(c)
			a.Digest = "sha256:" + hex.EncodeToString(sum[:])
		}
		if err := enc.Encode(a); err != nil {
			fmt.Fprintln(os.Stderr, err)
			os.Exit(1)
		}
	}
	if err := in.Err(); err != nil {
		fmt.Fprintln(os.Stderr, err)
		os.Exit(1)
	}
}
