// The objects a person creates: the two approval kinds and the
// run acknowledgment.
import { z } from "zod";
import { ApprovalIdentity, ObjectRef } from "./meta.ts";
import { approvalStamp, bindingFields, head, int, optionalSpec, simpleStatus, str } from "./fields.ts";

export const PtahSchemaApproval = z.object({
  ...head,
  spec: optionalSpec({
    schemaRef: ObjectRef.optional(),
    planRef: ObjectRef.optional(),
    planFingerprint: str,
    ...approvalStamp,
    // Older generations: binding copies the webhook hydrated from the plan. Read only.
    ...bindingFields,
    controllerStateVersion: int,
    ptahVersion: str,
    executorImage: str,
    runnerProtocolVersion: int,
  }),
  status: simpleStatus,
});
export type PtahSchemaApproval = z.infer<typeof PtahSchemaApproval>;

export const PtahMigrationApproval = z.object({
  ...head,
  spec: optionalSpec({
    migrationRef: ObjectRef.optional(),
    planRef: ObjectRef.optional(),
    planFingerprint: str,
    ...approvalStamp,
  }),
  status: simpleStatus,
});
export type PtahMigrationApproval = z.infer<typeof PtahMigrationApproval>;

export const PtahMigrationRunAcknowledgment = z.object({
  ...head,
  spec: optionalSpec({
    migrationRef: ObjectRef.optional(),
    operationID: str,
    acknowledgedBy: ApprovalIdentity.optional(),
    acknowledgedAt: str,
    mutationRequestUID: str,
  }),
  status: simpleStatus,
});
export type PtahMigrationRunAcknowledgment = z.infer<typeof PtahMigrationRunAcknowledgment>;
