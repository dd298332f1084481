// The e2e suite's OAuth 2.0 authorisation server: oidc-provider (npm, pinned by
// tests/e2e/support/oauth_gateway.py) set up for the client credentials grant only, issuing
// RS256-signed JWT access tokens for one API, which Apache's mod_auth_openidc verifies.
//
// Environment: ISSUER_PORT (on 127.0.0.1), RESOURCE (the API: the tokens' audience),
// ACCESS_TOKEN_TTL (seconds), CLIENT_ID, CLIENT_SECRET, OIDC_PROVIDER_DIR (where npm put it).
import { generateKeyPairSync, randomBytes } from 'node:crypto';
import { createRequire } from 'node:module';
import path from 'node:path';
import { pathToFileURL } from 'node:url';

const env = process.env;
const port = Number(env.ISSUER_PORT);
const resource = env.RESOURCE;
const ttl = Number(env.ACCESS_TOKEN_TTL);
const from = createRequire(path.join(path.resolve(env.OIDC_PROVIDER_DIR), 'here.js'));
const oidc = await import(pathToFileURL(from.resolve('oidc-provider')).href);

// A key of this start's own, with a kid of its own: a gateway that meets an unknown kid reads
// the key set again, so it follows an issuer started anew.
const { privateKey } = generateKeyPairSync('rsa', { modulusLength: 2048 });
const key = {
  ...privateKey.export({ format: 'jwk' }),
  kid: `k-${randomBytes(6).toString('hex')}`,
  use: 'sig',
  alg: 'RS256',
};

const provider = new oidc.default(`http://127.0.0.1:${port}`, {
  clients: [{
    client_id: env.CLIENT_ID,
    client_secret: env.CLIENT_SECRET,
    grant_types: ['client_credentials'],
    response_types: [],
    redirect_uris: [],
    // oidc-provider takes the secret by basic authentication or in the form alike.
    token_endpoint_auth_method: 'client_secret_basic',
  }],
  jwks: { keys: [key] },
  cookies: { keys: ['client credentials use no cookies'] },
  features: {
    devInteractions: { enabled: false },
    clientCredentials: { enabled: true },
    // Off: a discovery document naming an introspection endpoint would make the gateway ask
    // it about every token instead of checking the signature.
    introspection: { enabled: false },
    // Resource indicators make the client credentials tokens JWTs for the API.
    resourceIndicators: {
      enabled: true,
      defaultResource: async () => resource,
      getResourceServerInfo: async (ctx, indicator) => {
        if (indicator !== resource) {
          throw new oidc.errors.InvalidTarget(`unknown resource ${indicator}`);
        }
        return {
          scope: 'posts',
          audience: resource,
          accessTokenTTL: ttl,
          accessTokenFormat: 'jwt',
          jwt: { sign: { alg: 'RS256' } },
        };
      },
    },
  },
});
provider.on('grant.success', (ctx) => console.log(`token issued to ${ctx.oidc.client?.clientId}`));
provider.on('grant.error', (ctx, error) => console.log(`token refused: ${error.message}`));

const server = provider.listen(port, '127.0.0.1');
const stop = () => {
  server.close(() => process.exit(0));
  server.closeAllConnections();
};
process.on('SIGTERM', stop);
process.on('SIGINT', stop);
