// The engines the operator supports, by every name it accepts for them in spec.target.engine and a
// plan's dialect: postgres, postgresql, pgx are PostgreSQL; mysql, mariadb are MySQL.

export type Engine = "postgresql" | "mysql";

/** The operator's canonical engine for a name, case and surrounding space ignored; undefined for any other. */
export function canonicalEngine(engine: string | undefined): Engine | undefined {
  const e = (engine ?? "").trim().toLowerCase();
  if (e === "postgres" || e === "postgresql" || e === "pgx") return "postgresql";
  if (e === "mysql" || e === "mariadb") return "mysql";
  return undefined;
}
