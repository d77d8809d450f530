// The storefront schema an e2e test starts from (the simulator brings it to a plan waiting for
// approval): its verification policy, its database URL Secret and the schema, with the desired
// artifact and the apply policy the test needs (none given: the operator's default).
export function storefrontSetup(o: { readonly ociRef?: string; readonly apply?: "Always" | "OnApproval"; readonly allowDestructive?: boolean } = {}): string {
  const policy = [...(o.apply ? [`apply: ${o.apply}`] : []), ...(o.allowDestructive ? ["allowDestructive: true"] : [])];
  return `apiVersion: v1
kind: ConfigMap
metadata: {name: verification-policy}
immutable: true
data:
  policy.json: '{"artifactType":"application/vnd.ptah.schema.v1","signatures":"not required in the lab"}'
---
apiVersion: v1
kind: Secret
metadata: {name: storefront-db}
stringData: {url: "postgres://storefront@db.lab:5432/storefront"}
---
apiVersion: operator.ptah.run/v1alpha1
kind: PtahSchema
metadata: {name: storefront}
spec:
  target: {engine: PostgreSQL, coordinationKey: storefront, urlFrom: {name: storefront-db, key: url}}
  desired: {ociRef: "${o.ociRef ?? "oci://registry.lab/schemas/demo:v1"}", verificationPolicyFrom: {name: verification-policy, key: policy.json}}
${policy.length > 0 ? `  policy: {${policy.join(", ")}}\n` : ""}`;
}
