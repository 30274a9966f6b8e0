// `make deploy-files`: writes the generated deployment files from deploy/topology.json.
import { promises as fs } from 'node:fs';
import * as path from 'node:path';
import { generatedFiles } from './generated';
import { topology } from './topology';

async function main(): Promise<void> {
  const root = path.resolve(__dirname, '..', '..', '..');
  for (const [file, text] of Object.entries(generatedFiles(topology))) {
    await fs.writeFile(path.join(root, file), text);
    process.stdout.write(`wrote ${file}\n`);
  }
}

void main();
