// The plugin's verdict on a detached export signature with a required signer (`plan --verify
// --signer`, ssh-keygen -Y verify's -I), for the tests that hold it to ssh-keygen: "accepted", or
// the refusal's message. The files are named SIG, SIGNERS and FILE in its messages.
import { expect } from "vitest";
import { VerificationError } from "../../src/errors.ts";
import { PLAN_SIGNATURE_NAMESPACE, verifySignature } from "../../src/plan/ssh-signature.ts";

export interface SignedFiles {
  readonly message: Uint8Array;
  readonly signature: Uint8Array;
  readonly allowedSigners: Uint8Array;
}

export function verdictWithSigner(files: SignedFiles, signer: string): string {
  try {
    const who = verifySignature({ ...files, namespace: PLAN_SIGNATURE_NAMESPACE, signer, names: { signature: "SIG", allowedSigners: "SIGNERS", message: "FILE" } });
    // With a required signer the signer is the one principal reported, whoever the file lists.
    expect(who.principals).toEqual([signer]);
    return "accepted";
  } catch (err) {
    if (!(err instanceof VerificationError)) throw err;
    return err.message;
  }
}
