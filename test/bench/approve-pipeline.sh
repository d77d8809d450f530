#!/bin/sh
# The seed's approval by hand (the reference row for `approve SCHEMA`): read the schema, read its
# current plan by the name in status.plan.name, and build the approval with jq. Verifies nothing.
#   approve-pipeline.sh KUBECTL NAMESPACE SCHEMA WORKDIR
set -eu
kubectl=$1 ns=$2 schema=$3 dir=$4
"$kubectl" -n "$ns" get ptahschema "$schema" -o json > "$dir/schema.json"
"$kubectl" -n "$ns" get ptahschemaplan "$(jq -r .status.plan.name "$dir/schema.json")" -o json > "$dir/plan.json"
jq -n --slurpfile schema "$dir/schema.json" --slurpfile plan "$dir/plan.json" '
  { apiVersion: "operator.ptah.run/v1alpha1", kind: "PtahSchemaApproval",
    metadata: {name: "\($schema[0].metadata.name)-v1"},
    spec: { schemaRef: {name: $schema[0].metadata.name, uid: $schema[0].metadata.uid},
            planRef: {name: $plan[0].metadata.name, uid: $plan[0].metadata.uid},
            planFingerprint: $plan[0].spec.fingerprint } }'
