import nextCoreWebVitals from 'eslint-config-next/core-web-vitals';
import nextTypescript from 'eslint-config-next/typescript';
import prettier from 'eslint-config-prettier';

// The layers of ARCHITECTURE.md, enforced: OLM's rules (lib/olm) import nothing of the console,
// and the sandbox, a cluster of its own, imports only those rules (and test helpers).
const layers = {
  files: ['lib/olm/**', 'lib/sandbox/**'],
  // Tests act as the sandbox's clients, with the console's own client: they may import it.
  ignores: ['**/*.test.ts', '**/testing/**'],
  rules: {
    'import/no-restricted-paths': [
      'error',
      {
        zones: [
          {
            target: './lib/olm',
            from: './lib',
            except: ['./olm', './testing'],
            message: "lib/olm holds OLM's rules and imports nothing of the console",
          },
          {
            target: './lib/olm',
            from: ['./app', './components'],
            message: "lib/olm holds OLM's rules and imports nothing of the console",
          },
          {
            target: './lib/sandbox',
            from: './lib',
            except: ['./sandbox', './olm', './testing'],
            message: 'the sandbox is a cluster of its own: it depends on lib/olm only',
          },
          {
            target: './lib/sandbox',
            from: ['./app', './components'],
            message: 'the sandbox is a cluster of its own: it depends on lib/olm only',
          },
        ],
      },
    ],
  },
};

// Components run in the browser: they read the server's answers through lib/api's types and
// never import lib/server (its modules hold the person's client, secrets and Node APIs).
const components = {
  files: ['components/**'],
  rules: {
    'import/no-restricted-paths': [
      'error',
      {
        zones: [
          {
            target: './components',
            from: './lib/server',
            message: "components read the server's answers through lib/api's types, never lib/server",
          },
        ],
      },
    ],
  },
};

const config = [
  ...nextCoreWebVitals,
  ...nextTypescript,
  layers,
  components,
  // Formatting is Prettier's (npm run lint runs it too); ESLint keeps to what code means.
  prettier,
  { ignores: ['.next/**', 'node_modules/**', '.sandbox/**', 'next-env.d.ts'] },
];
export default config;
