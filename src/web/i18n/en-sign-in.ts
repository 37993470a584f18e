/**
 * The sign-in screen's English strings (its second-factor and single sign-on steps included): the lean login boot
 * (login-standalone.tsx) loads these alone, not the whole of en.ts (issue 46: the sign-in page's 100 KB). en.ts
 * takes them from here, so each string is written once.
 */
export const enSignIn = {
  actions: {
    submit: 'Submit',
  },
  errors: {
    generic: 'Oops, something went wrong...',
  },
  select: {
    loading: 'Loading…',
  },
  shell: {
    theme: 'Theme',
    themeLight: 'Light',
    themeDark: 'Dark',
    themeSystem: 'System',
    language: 'Language',
  },
  landing: {
    brand: 'MaintainIQ',
  },
  auth: {
    showPassword: 'Show or hide password',
    fields: {
      organization: 'Organization',
      email: 'Email',
      password: 'Password',
      confirmPassword: 'Confirm password',
      subdomain: 'Subdomain',
      numberOfWorkers: 'Number of Technicians',
    },
    login: {
      title: 'Sign in',
      subtitle: 'Welcome back. Sign in to your organisation.',
      noOrganization: 'Sign-in happens on your organisation’s own address. Enter its subdomain to continue.',
      noAccount: 'No account yet?',
      register: 'Register',
    },
    register: {
      title: 'Register your organisation',
      subtitle: 'Create your workspace in a minute.',
      subdomainHint: 'Lowercase letters, digits and hyphens; your address will be <subdomain>.<this site>',
      consent: 'I agree to the terms of service and the privacy policy',
      haveAccount: 'Already registered?',
      login: 'Login',
    },
    sso: {
      or: 'or',
      signInWith: 'Sign in with {{name}}',
      passwordForAdmins: 'Password sign-in is for admins only here.',
      finishing: 'Signing you in…',
      backToLogin: 'Back to sign-in',
    },
    invite: { title: 'Complete your registration', subtitle: 'You were invited to join your team.' },
    marketing: {
      paperwork: { title: 'Paperwork-free collaboration', text: 'Work orders, requests and approvals in one place, on every device of your team.' },
      history: { title: 'Asset history at your fingertips', text: 'Every repair, part and note of every asset, searchable in seconds.' },
      decisions: { title: 'Data-driven decisions', text: 'See what breaks, what it costs and where your team spends its time.' },
      crm: { title: 'CRM integration', text: 'Customers, vendors, quotations and purchase orders linked to the work.' },
    },
  },
  security: {
    codeTitle: 'Two-factor sign-in',
    codeSubtitle: 'Enter the 6-digit code from your authenticator app.',
    code: 'Authentication code',
    useRecovery: 'Use a recovery code',
    useCode: 'Use the authenticator app',
    recoveryCode: 'Recovery code',
    recoverySubtitle: 'Enter one of the recovery codes you saved. Each works once.',
    verify: 'Verify',
    startOver: 'Back to sign-in',
    enrolTitle: 'Set up two-factor sign-in',
    enrolRequired: 'Your organisation requires two-factor sign-in. Set it up to continue.',
    scan: 'Scan this QR code with an authenticator app (Google Authenticator, Microsoft Authenticator, 1Password…), then enter the code it shows.',
    manualKey: 'Or enter this key by hand',
    confirm: 'Turn on',
    recoveryTitle: 'Save your recovery codes',
    recoveryHint: 'Each code signs you in once if you lose your phone. They are shown only now.',
    copy: 'Copy',
    copied: 'Copied',
    download: 'Download',
    continue: 'Continue',
  },
};
