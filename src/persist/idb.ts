/**
 * The lab's IndexedDB store: one database "rlvr-lab"; its object store "runs" has the slot
 * "latest" holding the current run (src/persist/savedRun.ts) and "finished" the runs list, and "kernelForms" the kernel
 * forms the engine's autotune chose per adapter, browser and model (src/gpu/autotune.ts: its key;
 * what is read back is checked there before use). Failures never throw into the
 * page: every operation resolves to a result with a sentence for the user (storage full,
 * storage blocked, private browsing…), so the run goes on and the page says what happened.
 */

const DB_NAME = 'rlvr-lab';
const STORE = 'runs';
const FORMS = 'kernelForms';
const SLOT = 'latest';
/** Version 2 added FORMS. */
const DB_VERSION = 2;

export type StorageResult<T> = { ok: true; value: T } | { ok: false; error: string };

/** A user-facing sentence for a storage failure. */
export function storageErrorText(e: unknown, action: string): string {
  const name = (e as { name?: string } | null)?.name ?? '';
  const msg = ((e as { message?: string } | null)?.message ?? String(e)).slice(0, 120);
  if (name === 'QuotaExceededError' || /quota/i.test(msg)) {
    return `The browser's storage for this site is full (quota exceeded), so the run could not be ${action}. Training goes on, but a reload cannot resume it: export a checkpoint to keep it.`;
  }
  if (name === 'SecurityError' || name === 'InvalidStateError') {
    return `This browser does not allow the lab to store data (${name}: ${msg}), so the run could not be ${action}. Training goes on; a reload will start over.`;
  }
  return `The run could not be ${action} in this browser's storage (${name ? `${name}: ` : ''}${msg}). Training goes on; a reload may not resume it.`;
}

/** The lab's database, opened on first use and reopened after a failure; one transaction per call. */
class LabDb {
  private db: Promise<IDBDatabase> | null = null;

  private open(): Promise<IDBDatabase> {
    if (this.db) return this.db;
    const db = new Promise<IDBDatabase>((resolve, reject) => {
      if (typeof indexedDB === 'undefined') {
        reject(Object.assign(new Error('IndexedDB is not available'), { name: 'InvalidStateError' }));
        return;
      }
      const req = indexedDB.open(DB_NAME, DB_VERSION);
      req.onupgradeneeded = () => {
        for (const name of [STORE, FORMS]) if (!req.result.objectStoreNames.contains(name)) req.result.createObjectStore(name);
      };
      req.onsuccess = () => resolve(req.result);
      req.onerror = () => reject(req.error);
      req.onblocked = () => reject(Object.assign(new Error('the database is blocked by another tab'), { name: 'InvalidStateError' }));
    });
    this.db = db;
    db.catch(() => { if (this.db === db) this.db = null; }); // try again next time
    return db;
  }

  tx<T>(store: string, mode: IDBTransactionMode, f: (s: IDBObjectStore) => IDBRequest | null): Promise<T> {
    return this.open().then((db) => new Promise<T>((resolve, reject) => {
      let t: IDBTransaction;
      try {
        t = db.transaction(store, mode);
      } catch (e) {
        reject(e);
        return;
      }
      let result: T;
      let req: IDBRequest | null;
      try {
        req = f(t.objectStore(store));
      } catch (e) {
        reject(e); // e.g. DataCloneError
        return;
      }
      if (req) req.onsuccess = () => { result = req!.result as T; };
      t.oncomplete = () => resolve(result);
      t.onerror = () => reject(t.error ?? req?.error);
      t.onabort = () => reject(t.error ?? req?.error ?? new Error('the storage transaction was aborted'));
    }));
  }
}

/** A run's slot in this browser's IndexedDB: "latest" (the live run) unless named ("finished": the runs list). */
export class RunStore {
  private readonly db = new LabDb();
  constructor(private readonly slot: string = SLOT) {}
  private tx<T>(mode: IDBTransactionMode, f: (s: IDBObjectStore) => IDBRequest | null): Promise<T> {
    return this.db.tx(STORE, mode, f);
  }

  /** Write the run into the slot (replacing the previous one). */
  async save(record: unknown): Promise<StorageResult<void>> {
    try {
      await this.tx<void>('readwrite', (s) => s.put(record, this.slot));
      return { ok: true, value: undefined };
    } catch (e) {
      return { ok: false, error: storageErrorText(e, 'saved') };
    }
  }

  /** The saved run, or null when there is none. */
  async load(): Promise<StorageResult<unknown | null>> {
    try {
      const v = await this.tx<unknown>('readonly', (s) => s.get(this.slot));
      return { ok: true, value: v ?? null };
    } catch (e) {
      return { ok: false, error: storageErrorText(e, 'read') };
    }
  }

  /** Forget the saved run. */
  async clear(): Promise<StorageResult<void>> {
    try {
      await this.tx<void>('readwrite', (s) => s.delete(this.slot));
      return { ok: true, value: undefined };
    } catch (e) {
      return { ok: false, error: storageErrorText(e, 'cleared') };
    }
  }
}

/**
 * The kernel forms the engine's autotune chose, by its key (adapter, browser version, model
 * shape): the next visit checks those forms and times nothing (src/gpu/autotune.ts AutotuneCache).
 * A storage failure reads as "nothing cached" and loses only the time of tuning again.
 */
export class KernelFormsStore {
  private readonly db = new LabDb();
  async get(key: string): Promise<unknown> {
    try {
      return (await this.db.tx<unknown>(FORMS, 'readonly', (s) => s.get(key))) ?? null;
    } catch {
      return null;
    }
  }
  async put(key: string, value: unknown): Promise<void> {
    try {
      await this.db.tx<void>(FORMS, 'readwrite', (s) => s.put(value, key));
    } catch { /* tuned again next visit */ }
  }
}
