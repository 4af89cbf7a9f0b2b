/** The object store of standalone: files in a directory, each beside a small JSON of its metadata. */
import { mkdir, readdir, readFile, rm, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { OBJECT_KEY, type ObjectStore, type StoredObject } from './object-store';

interface Meta {
  contentType: string;
  expiresAt: number;
}

export class FsObjectStore implements ObjectStore {
  constructor(private readonly dir: string) {}

  async put(key: string, object: StoredObject): Promise<void> {
    if (!OBJECT_KEY.test(key)) throw new Error(`invalid object key ${key}`);
    await mkdir(this.dir, { recursive: true });
    await writeFile(join(this.dir, key), object.data);
    const meta: Meta = { contentType: object.contentType, expiresAt: object.expiresAt };
    await writeFile(join(this.dir, `${key}.json`), JSON.stringify(meta));
  }

  async get(key: string): Promise<StoredObject | undefined> {
    if (!OBJECT_KEY.test(key)) return undefined;
    try {
      const meta = JSON.parse(await readFile(join(this.dir, `${key}.json`), 'utf8')) as Meta;
      return { data: await readFile(join(this.dir, key)), ...meta };
    } catch {
      return undefined;
    }
  }

  async delete(key: string): Promise<void> {
    if (!OBJECT_KEY.test(key)) return;
    await rm(join(this.dir, `${key}.json`), { force: true });
    await rm(join(this.dir, key), { force: true });
  }

  async sweep(now = Date.now()): Promise<number> {
    let names: string[];
    try {
      names = await readdir(this.dir);
    } catch {
      return 0;
    }
    let swept = 0;
    for (const name of names.filter((n) => n.endsWith('.json'))) {
      const key = name.slice(0, -5);
      const meta = await readFile(join(this.dir, name), 'utf8').then(
        (t) => JSON.parse(t) as Meta,
        () => undefined,
      );
      if (meta && meta.expiresAt <= now) {
        await this.delete(key);
        swept++;
      }
    }
    return swept;
  }
}
