import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { isCloudProviderOrg } from './cloud-provider-orgs';

describe('isCloudProviderOrg', () => {
  it('knows the cloud providers under every name the routing data uses', () => {
    for (const org of [
      'Amazon Data Services Ireland Ltd', // AS8987
      'Amazon.com, Inc.',
      'Amazon Technologies Inc.',
      'Google LLC', // AS19527, AS36040
      'Google, LLC', // AS36492
      'Google Asia Pacific Pte. Ltd.', // AS139070
      'Google Cloud EMEA Ltd',
      'DigitalOcean, LLC',
      'Microsoft Corporation',
      'Oracle Corporation',
      'Hetzner Online GmbH',
      'OVH SAS',
      'The Constant Company, LLC',
    ]) {
      assert.equal(isCloudProviderOrg(org), true, org);
    }
  });

  it('never matches consumer ISPs or look-alike names', () => {
    for (const org of [
      'Google Fiber Inc.',
      'Alibaba Travel Company (LTD)',
      'Comcast Cable Communications, LLC',
      'Amazonas Telecom',
      'Deutsche Telekom AG',
      'Akamai Technologies, Inc.', // CDN edges and iCloud Private Relay egress: real users
      '',
    ]) {
      assert.equal(isCloudProviderOrg(org), false, org);
    }
    assert.equal(isCloudProviderOrg(null), false);
  });
});
