// Handlers for the profiles area (see src/shared/api/profiles.ts): saved connections, secrets, test, connect.

import path from 'node:path';
import type { ProfilesApi } from '../../shared/api/profiles.js';
import type { Services } from '../services/index.js';
import { defaultConfigDir, ProfileService, ProfileStore } from '../services/profiles.js';
import { NO_KEYCHAIN_REASON, NoSecretStore } from '../services/secrets.js';

/** The profiles handlers; a ProfileService without secret storage is created when `services.profiles` is absent. */
export function createProfilesHandlers(services: Services): ProfilesApi {
  const profiles =
    services.profiles ??
    new ProfileService(
      new ProfileStore(path.join(services.userDataDir ?? defaultConfigDir(), 'profiles.json')),
      new NoSecretStore(NO_KEYCHAIN_REASON),
      services.connections,
    );
  return {
    async 'profiles.list'() {
      return profiles.list();
    },
    async 'profiles.save'(request) {
      return profiles.save(request);
    },
    async 'profiles.delete'(request) {
      await profiles.delete(request.id);
    },
    async 'profiles.test'(request) {
      return profiles.test(request);
    },
    async 'profiles.connect'(request) {
      return profiles.connect(request);
    },
  };
}
