// Types of fleet.mjs for the e2e test that shares it.
export interface Closable {
  readonly port: number;
  close(): Promise<void>;
}
export interface FleetContext {
  readonly name: string;
  readonly port?: number;
  readonly kind: "live" | "slow" | "dead";
}
export function slowProxy(target: { host: string; port: number }, delayMs: number): Promise<Closable>;
export function blackHole(): Promise<Closable>;
export function closedPort(): Promise<number>;
export function writeFleetKubeconfig(source: string, contexts: readonly { name: string; port?: number }[], namespace: string, file: string): Promise<string>;
export function fleetLayout(count: number, ports: { slow: number; dead: number }): FleetContext[];
