// PtahSchemaPlan and its chunks, as PtahSchemaPlanChunk objects
// or as the older ConfigMaps.
import { z } from "zod";
import { Conditions, ObjectRef } from "./meta.ts";
import { bool, head, int, optionalSpec, recordedBindings, stateBindings, str, strList } from "./fields.ts";

export const ChunkManifestEntry = z.object({
  name: str,
  index: int,
  digest: str,
  size: int,
  key: str, // older ConfigMap-era plans
});
export type ChunkManifestEntry = z.infer<typeof ChunkManifestEntry>;

export const PtahSchemaPlan = z.object({
  ...head,
  spec: optionalSpec({
    contractVersion: int,
    schemaRef: ObjectRef.optional(),
    fingerprint: str,
    contentDigest: str,
    size: int,
    ...recordedBindings,
    ...stateBindings,
    dialect: str,
    destructive: bool,
    privilegeChanges: strList,
    statementCount: int,
    chunks: z.array(ChunkManifestEntry).optional(),
  }),
  status: z
    .object({
      observedGeneration: int,
      publishedChunks: z.array(z.object({ name: str, uid: str, index: int })).optional(),
      conditions: Conditions,
    })
    .default(() => ({ conditions: [] })),
});
export type PtahSchemaPlan = z.infer<typeof PtahSchemaPlan>;

// ---------------------------------------------------------------- PtahSchemaPlanChunk

export const PtahSchemaPlanChunk = z.object({
  ...head,
  spec: optionalSpec({ data: str }),
});
export type PtahSchemaPlanChunk = z.infer<typeof PtahSchemaPlanChunk>;

/** Older installs stored chunks in immutable ConfigMaps under binaryData key `chunk`. */
export const ChunkConfigMap = z.object({
  ...head,
  immutable: bool,
  binaryData: z.record(z.string(), z.string()).optional(),
});
export type ChunkConfigMap = z.infer<typeof ChunkConfigMap>;
